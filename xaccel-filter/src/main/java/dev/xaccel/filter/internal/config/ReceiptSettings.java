package dev.xaccel.filter.internal.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.XAccelReceiptListener;
import dev.xaccel.filter.internal.util.Messages;

/**
 * The receipt settings of one filter: whether receipts are made, where nginx's lines arrive, who listens, how long
 * an issued receipt waits and how many wait for the listeners.
 *
 * @param address        the loopback UDP address nginx logs to, or {@code null} (off, direct or a file)
 * @param file           the log file nginx appends the lines to, or {@code null} (off, direct or an address)
 * @param enabled        {@code false} for {@code off}
 * @param listenerClass  the {@code receiptListener} class name, or {@code null}
 * @param listeners      listeners given as objects (builder, Spring beans)
 * @param timeoutSeconds {@code receiptTimeout}
 * @param queue          {@code receiptQueue}
 */
public record ReceiptSettings(boolean enabled, InetSocketAddress address, Path file, String listenerClass,
        List<XAccelReceiptListener> listeners, long timeoutSeconds, int queue) {

    /** The defaults: off. */
    public static final ReceiptSettings OFF = new ReceiptSettings(false, null, null, null, List.of(),
            InitParams.DEFAULT_RECEIPT_TIMEOUT, InitParams.DEFAULT_RECEIPT_QUEUE);

    /** {@code receipts} value: no receipts. */
    public static final String OFF_VALUE = "off";
    /** {@code receipts} value: receipts of what the filter sends itself, no socket. */
    public static final String DIRECT_VALUE = "direct";

    private static final Pattern ADDRESS = Pattern.compile(
            "(\\d{1,3}(?:\\.\\d{1,3}){3}|\\[[0-9a-fA-F:]+\\]):(\\d{1,5})");

    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\p{javaJavaIdentifierStart}[\\p{javaJavaIdentifierPart}.$]*");

    public ReceiptSettings {
        listeners = List.copyOf(listeners);
    }

    /** The {@code receipts} value as the startup line shows it. */
    public String shown() {
        if (!enabled) {
            return OFF_VALUE;
        }
        if (file != null) {
            return file.toString();
        }
        if (address == null) {
            return DIRECT_VALUE;
        }
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /**
     * Parses a {@code receipts} value: {@code off}, {@code direct}, a loopback {@code IP:PORT} (a literal, never
     * a name to look up: nothing but this host may send receipts) or the absolute path of the file nginx appends
     * the lines to, in a directory that exists (nginx makes the file; a missing directory would leave every offload
     * unreceipted without a word).
     *
     * @throws ConfigException naming the parameter and the value
     */
    public static ReceiptSettings parseMode(ReceiptSettings base, String value) {
        String v = value == null ? "" : value.trim();
        if (v.equalsIgnoreCase(OFF_VALUE)) {
            return new ReceiptSettings(false, null, null, base.listenerClass, base.listeners, base.timeoutSeconds,
                    base.queue);
        }
        if (v.equalsIgnoreCase(DIRECT_VALUE)) {
            return new ReceiptSettings(true, null, null, base.listenerClass, base.listeners, base.timeoutSeconds,
                    base.queue);
        }
        if (v.startsWith("/")) {
            return new ReceiptSettings(true, null, logFile(value, v), base.listenerClass, base.listeners,
                    base.timeoutSeconds, base.queue);
        }
        Matcher m = ADDRESS.matcher(v);
        if (!m.matches()) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts"));
        }
        int port = Integer.parseInt(m.group(2));
        String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
        InetAddress ip;
        try {
            ip = InetAddress.getByName(host); // a literal: no name service is asked
        } catch (UnknownHostException e) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts"));
        }
        if (!ip.isLoopbackAddress()) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts.loopback"));
        }
        if (port < 1 || port > 65535) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts"));
        }
        return new ReceiptSettings(true, new InetSocketAddress(ip, port), null, base.listenerClass, base.listeners,
                base.timeoutSeconds, base.queue);
    }

    /** The log file: its directory must exist, and the name, once there, must be a regular file (not a pipe). */
    private static Path logFile(String value, String v) {
        Path file;
        try {
            file = Path.of(v).normalize();
        } catch (InvalidPathException e) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts"));
        }
        if (file.getParent() == null || file.getFileName() == null || !Files.isDirectory(file.getParent())) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts.directory"));
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw ConfigException.invalid(InitParams.RECEIPTS, value, Messages.get("config.receipts.regularFile"));
        }
        return file;
    }

    ReceiptSettings withListenerClass(String className) {
        if (className == null || !CLASS_NAME.matcher(className).matches()) {
            throw ConfigException.invalid(InitParams.RECEIPT_LISTENER, className,
                    Messages.get("config.receiptListener"));
        }
        return new ReceiptSettings(enabled, address, file, className, listeners, timeoutSeconds, queue);
    }

    ReceiptSettings withListener(XAccelReceiptListener listener) {
        List<XAccelReceiptListener> more = new java.util.ArrayList<>(listeners);
        more.add(java.util.Objects.requireNonNull(listener, InitParams.RECEIPT_LISTENER));
        return new ReceiptSettings(enabled, address, file, listenerClass, more, timeoutSeconds, queue);
    }

    ReceiptSettings withTimeout(long seconds) {
        if (seconds < 1 || seconds > 7 * 24 * 3600) {
            throw ConfigException.invalid(InitParams.RECEIPT_TIMEOUT, seconds, Messages.get("config.receiptTimeout"));
        }
        return new ReceiptSettings(enabled, address, file, listenerClass, listeners, seconds, queue);
    }

    ReceiptSettings withQueue(long size) {
        if (size < 1 || size > 10_000_000) {
            throw ConfigException.invalid(InitParams.RECEIPT_QUEUE, size, Messages.get("config.receiptQueue"));
        }
        return new ReceiptSettings(enabled, address, file, listenerClass, listeners, timeoutSeconds, (int) size);
    }
}
