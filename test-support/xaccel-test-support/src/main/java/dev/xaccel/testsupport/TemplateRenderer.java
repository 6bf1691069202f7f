package dev.xaccel.testsupport;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one renderer of the project's configuration templates (nginx, and whatever server comes next): every
 * {@code ${NAME}} (upper case letters, digits, {@code _}) is replaced by its value, a placeholder without a value is
 * an error, and everything else stays as written, nginx's {@code $var} and {@code ${var}} (lower case) included.
 * Values are inserted verbatim: {@code $} and {@code \} in a value are not special.
 * <p>
 * Also a command for scripts ({@code ./demo}): {@code java -cp test-support/xaccel-test-support/target/classes
 * dev.xaccel.testsupport.TemplateRenderer TEMPLATE [NAME=VALUE | NAME]...} prints the rendered template; a bare
 * {@code NAME} takes the value of the environment variable {@code NAME} (for secrets: the command line of a
 * process is readable by every user, its environment is not).
 */
public final class TemplateRenderer {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}");

    private TemplateRenderer() {
    }

    /**
     * Replaces every {@code ${NAME}} of {@code template}.
     *
     * @throws IllegalArgumentException naming the first placeholder {@code values} has no value for
     */
    public static String render(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder(template.length() + 256);
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("No value for placeholder ${" + m.group(1) + "} in the template");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@link #render(String, Map)} of a UTF-8 file; the file is named in the error. */
    public static String render(Path template, Map<String, String> values) throws IOException {
        try {
            return render(Files.readString(template, StandardCharsets.UTF_8), values);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " " + template, e);
        }
    }

    /** See the class comment; exit status 2 for a usage error or an unknown placeholder. */
    public static void main(String[] args) throws IOException {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) throws IOException {
        if (args.length == 0) {
            err.println("usage: TemplateRenderer TEMPLATE [NAME=VALUE | NAME]...");
            return 2;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            String name = eq < 0 ? args[i] : args[i].substring(0, eq);
            String value = eq < 0 ? env.get(name) : args[i].substring(eq + 1);
            if (value == null) {
                err.println("TemplateRenderer: no environment variable " + name);
                return 2;
            }
            values.put(name, value);
        }
        try {
            out.print(render(Path.of(args[0]), values));
            out.flush();
            return out.checkError() ? 1 : 0;
        } catch (IllegalArgumentException e) {
            err.println("TemplateRenderer: " + e.getMessage());
            return 2;
        }
    }
}
