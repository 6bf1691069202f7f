/**
 * xaccel's Servlet filter: after the application authorized a request for a file,
 * {@link dev.xaccel.filter.XAccelFilter} answers with an empty body and {@code X-Accel-Redirect} (nginx, Caddy) or
 * {@code X-Sendfile} (Apache httpd, lighttpd), and the front end sends the bytes; without a front end it serves the
 * file itself.
 *
 * <p>The API: {@link dev.xaccel.filter.XAccelFilter} (configured by init-params, names and defaults in
 * {@link dev.xaccel.filter.InitParams}, or by {@link dev.xaccel.filter.XAccelFilter#builder()}),
 * {@link dev.xaccel.filter.XAccel#sendFile} with {@link dev.xaccel.filter.XAccelFile} (declared mode),
 * {@link dev.xaccel.filter.SignedLinks} (links nginx verifies alone), the choices
 * {@link dev.xaccel.filter.OffloadMode}, {@link dev.xaccel.filter.HeaderType},
 * {@link dev.xaccel.filter.Disposition}, {@link dev.xaccel.filter.SymlinkPolicy}, and the statistics
 * {@link dev.xaccel.filter.XAccelFilterMXBean}, and {@link dev.xaccel.filter.ConfigException}, which names the
 * init-param it refuses. The stages a request passes are in {@code dev.xaccel.filter.internal.*}, which the
 * module does not export ({@code docs/architecture.md}). The trust boundary the filter keeps with the front end
 * is described in {@code docs/security.md}.
 */
package dev.xaccel.filter;
