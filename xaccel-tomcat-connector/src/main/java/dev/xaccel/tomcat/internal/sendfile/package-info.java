/**
 * <b>Internal, not API</b> (it may change in any release): Tomcat's sendfile from a channel the application opened,
 * for the xaccel filter. {@link dev.xaccel.tomcat.internal.sendfile.SlotAdapter} offers each HTTP/1.x request a
 * {@link dev.xaccel.tomcat.internal.sendfile.ChannelSlot} (a request attribute of a JDK type, as the application's
 * class loader is not the connector's); {@link dev.xaccel.tomcat.internal.sendfile.CheckedFileSocketWrapper} takes
 * the channel from it when Tomcat commits the response and sends from it on the request's worker thread
 * ({@link dev.xaccel.tomcat.internal.sendfile.BlockingTransfer}): the file is never opened again by name. Nothing
 * here depends on {@code dev.xaccel.tomcat}.
 */
package dev.xaccel.tomcat.internal.sendfile;
