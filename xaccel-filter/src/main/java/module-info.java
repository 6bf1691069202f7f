/**
 * Offloads file downloads of Jakarta Servlet applications to the front-end server ({@code X-Accel-Redirect},
 * {@code X-Sendfile}) and serves them directly where no front end takes them. Only the API is exported: the
 * stages of a request ({@code dev.xaccel.filter.internal.*}) are the module's own and may change in any release.
 */
module dev.xaccel.filter {
    requires transitive jakarta.servlet;
    requires static jakarta.ws.rs;
    requires java.logging;
    requires java.management;
    requires java.net.http;

    exports dev.xaccel.filter;
    exports dev.xaccel.filter.jaxrs;
}
