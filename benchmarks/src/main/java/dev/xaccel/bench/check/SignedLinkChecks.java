package dev.xaccel.bench.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.setup.BenchRig;

/**
 * Setup 7 (signed links): every link has the shape SignedLinks issues and serves the file it names (bytes
 * compared for every 20th); a tampered signature, one file's signature on another file and an unsigned link are
 * 403, an expired link is 410.
 */
public final class SignedLinkChecks {

    private static final Pattern LINK = Pattern.compile("/s/media/small-[^?]*\\.bin\\?md5=.*&expires=.*");

    private SignedLinkChecks() {
    }

    /** The links BenchServer signed, one per small file, in name order. */
    public static List<String> links(BenchRig rig) {
        return read(rig.endpoints().urlList(Setup.SIGNED).orElseThrow());
    }

    /** The signed link of one small file (path and query). */
    static String linkTo(BenchRig rig, String name) {
        return links(rig).stream().filter(l -> l.contains("/" + name + "?")).findFirst()
                .orElseThrow(() -> new BenchFailure("signed: no link to " + name));
    }

    static void verify(BenchRig rig) {
        List<String> links = links(rig);
        Http http = rig.http();
        for (int i = 0; i < links.size(); i++) {
            String link = links.get(i);
            if (!LINK.matcher(link).matches()) {
                throw new BenchFailure("signed: unexpected link " + link);
            }
            if (i % 20 == 7) {
                String name = link.substring(link.lastIndexOf('/', link.indexOf('?')) + 1, link.indexOf('?'));
                Http.Answer a = http.get(rig.endpoints().signed(link));
                if (a.status() != 200 || !SetupChecks.sameBytes(rig, a.body(), name)) {
                    throw new BenchFailure("signed: " + link + " answered " + a.status() + ", not " + name);
                }
            }
        }
        String first = links.get(0);
        expect(rig, SetupChecks.tamper(first, "md5", 'A', 'B'), 403, "a tampered signature");
        expect(rig, first.replaceFirst("small-000\\.bin", "small-001.bin"), 403, "small-000's signature on small-001");
        expect(rig, first.substring(0, first.indexOf('?')), 403, "a link without signature");
        Path expired = Path.of(rig.endpoints().urlList(Setup.SIGNED).orElseThrow() + ".expired");
        expect(rig, read(expired).get(0), 410, "an expired link");
        Log.info("signed: " + links.size() + " links verified (bytes of every 20th), 403 tampered/other file/unsigned,"
                + " 410 expired");
    }

    private static void expect(BenchRig rig, String link, int status, String what) {
        int code = rig.http().status(rig.endpoints().signed(link));
        if (code != status) {
            throw new BenchFailure("signed: " + what + " got " + code + ", not " + status);
        }
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("reading the signed links " + file, e);
        }
    }
}
