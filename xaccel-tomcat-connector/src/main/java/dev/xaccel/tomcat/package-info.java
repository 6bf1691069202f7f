/**
 * Kernel accept filters for Tomcat 11's NIO connector: the kernel holds a new connection until its first data (with
 * FreeBSD's {@code httpready}: its whole request head) has arrived, and only then hands it to Tomcat's acceptor.
 * <p>
 * This package is the connector's public API:
 * <ul>
 * <li>{@link dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol} and {@link dev.xaccel.tomcat.AcceptFilterAjpNioProtocol},
 * the protocol classes named in {@code server.xml}
 * ({@code <Connector protocol="dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol" acceptFilter="httpready"/>}), with
 * the attributes of {@link dev.xaccel.tomcat.AcceptFilterProtocol};</li>
 * <li>{@link dev.xaccel.tomcat.AcceptFilterNioEndpoint}, the {@code NioEndpoint} both use, which applies the filter
 * on every bind and wakes its acceptor through the filter on pause and stop;</li>
 * <li>the value types {@link dev.xaccel.tomcat.AcceptFilter} (a BSD {@code struct accept_filter_arg}),
 * {@link dev.xaccel.tomcat.AcceptFilterMode} (the {@code acceptFilter} attribute) and
 * {@link dev.xaccel.tomcat.AcceptFilterStatus} (what a bind achieved).</li>
 * </ul>
 * Linux gets {@code TCP_DEFER_ACCEPT}, FreeBSD and NetBSD {@code SO_ACCEPTFILTER}; elsewhere the connector logs one
 * warning and runs without a filter. The system calls are made by {@code dev.xaccel.tomcat.internal.os}, which is
 * not API.
 */
package dev.xaccel.tomcat;
