package dev.xaccel.testsupport.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for the application's own authorization, mapped before the XAccelFilter: without
 * {@code Authorization: Bearer test-token} the request ends here with 401. It also records the remote
 * port of each authorized request, which identifies the TCP connection nginx used (in a server's JVM, to the
 * file of its init-param {@value #PORTS_FILE}, {@link WarDeclared}).
 */
public final class BearerAuthFilter implements Filter, WarDeclared {

    public static final String TOKEN = "test-token";
    public static final String AUTHORIZATION = "Bearer " + TOKEN;

    /** Init-param: the file the remote ports are appended to, one a line. */
    static final String PORTS_FILE = "remotePortsFile";

    private final List<Integer> remotePorts = new CopyOnWriteArrayList<>();
    private Path portsFile;

    @Override
    public Map<String, String> warParams(Path dir) {
        portsFile = dir.resolve("remote-ports");
        return Map.of(PORTS_FILE, portsFile.toString());
    }

    @Override
    public void init(FilterConfig config) {
        String file = config.getInitParameter(PORTS_FILE);
        if (file != null) {
            portsFile = Path.of(file);
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        if (!AUTHORIZATION.equals(req.getHeader("Authorization"))) {
            resp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            resp.setHeader("WWW-Authenticate", "Bearer realm=\"xaccel-test\"");
            resp.setContentType("text/plain");
            resp.getWriter().write("unauthorized\n");
            return;
        }
        if (portsFile == null) {
            remotePorts.add(req.getRemotePort());
        } else {
            synchronized (this) {
                Files.writeString(portsFile, req.getRemotePort() + "\n", StandardCharsets.US_ASCII,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
        chain.doFilter(request, response);
    }

    public List<Integer> remotePorts() {
        if (portsFile == null) {
            return List.copyOf(remotePorts);
        }
        try {
            return Files.exists(portsFile) ? Files.readAllLines(portsFile).stream().map(Integer::valueOf).toList()
                    : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
