package dev.xaccel.testsupport.nginx;

import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.servlet.SuiteApp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * nginx as the suites' {@link FrontEnd}: {@link DocsNginx#TEMPLATE} (or another docs/nginx template) rendered for
 * the backend and the media root. Its log format ({@code uri="..." ... ulen=...}) tells who sent a body: an
 * offloaded request ends at the internal location with an empty upstream body.
 */
public final class NginxFrontEnd implements FrontEnd {

    private final NginxServer nginx;

    private NginxFrontEnd(NginxServer nginx) {
        this.nginx = nginx;
    }

    /** The nginx itself, for what a suite does beyond the interface. */
    public NginxServer server() {
        return nginx;
    }

    @Override
    public int port() {
        return nginx.port();
    }

    @Override
    public Path accessLog() {
        return nginx.accessLogFile();
    }

    @Override
    public Delivery delivery(String requestId) {
        String line = nginx.awaitAccessLogLine(requestId);
        return new Delivery(line, line.contains("uri=\"" + SuiteApp.INTERNAL_PREFIX), !line.contains(" ulen=0 "));
    }

    @Override
    public void close() {
        nginx.close();
    }

    /** nginx from a docs/nginx template with extra placeholder values. */
    public static final class Factory implements FrontEnd.Factory {

        private final String name;
        private final String template;
        private final Map<String, String> extra;

        /** The documented template ({@link DocsNginx#TEMPLATE}): what {@code xaccel.frontend=nginx} selects. */
        public Factory() {
            this("nginx", DocsNginx.TEMPLATE, Map.of());
        }

        /** @param template a file of the repository, e.g. {@code docs/nginx/xaccel-cached-auth.conf.template} */
        public Factory(String name, String template, Map<String, String> extra) {
            this.name = name;
            this.template = template;
            this.extra = Map.copyOf(extra);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public FrontEnd start(String suite, int backendPort, Path mediaRoot) throws IOException {
            return new NginxFrontEnd(DocsNginx.start(suite, DocsNginx.text(template), extra, backendPort, mediaRoot));
        }

        @Override
        public Map<String, String> filterParams(Path mediaRoot) {
            return Map.of("locations", mediaRoot + "/ => " + SuiteApp.INTERNAL_PREFIX);
        }

        @Override
        public String offloadHeader() {
            return "X-Accel-Redirect";
        }

        @Override
        public Optional<String> internalPrefix() {
            return Optional.of(SuiteApp.INTERNAL_PREFIX);
        }

        @Override
        public boolean reusesUpstreamConnections() {
            return true;
        }
    }
}
