package dev.xaccel.filter.internal.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
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
 * @param address        the loopback UDP address nginx logs to, or {@code null} (off or direct)
 * @param enabled        {@code false} for {@code off}
 * @param listenerClass  the {@code receiptListener} class name, or {@code null}
 * @param listeners      listeners given as objects (builder, Spring beans)
 * @param timeoutSeconds {@code receiptTimeout}
 * @param queue          {@code receiptQueue}
 */
public record ReceiptSettings(boolean enabled, InetSocketAddress address, String listenerClass,
        List<XAccelReceiptListener> listeners, long timeoutSeconds, int queue) {

    /** The defaults: off. */
    public static final ReceiptSettings OFF = new ReceiptSettings(false, null, null, List.of(),
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
        if (address == null) {
            return DIRECT_VALUE;
        }
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /**
     * Parses a {@code receipts} value: {@code off}, {@code direct} or a loopback {@code IP:PORT} (a literal, never
     * a name to look up: nothing but this host may send receipts).
     *
     * @throws ConfigException naming the parameter and the value
     */
    public static ReceiptSettings parseMode(ReceiptSettings base, String value) {
        String v = value == null ? "" : value.trim();
        if (v.equalsIgnoreCase(OFF_VALUE)) {
            return new ReceiptSettings(false, null, base.listenerClass, base.listeners, base.timeoutSeconds,
                    base.queue);
        }
        if (v.equalsIgnoreCase(DIRECT_VALUE)) {
            return new ReceiptSettings(true, null, base.listenerClass, base.listeners, base.timeoutSeconds,
                    base.queue);
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
        return new ReceiptSettings(true, new InetSocketAddress(ip, port), base.listenerClass, base.listeners,
                base.timeoutSeconds, base.queue);
    }

    ReceiptSettings withListenerClass(String className) {
        if (className == null || !CLASS_NAME.matcher(className).matches()) {
            throw ConfigException.invalid(InitParams.RECEIPT_LISTENER, className,
                    Messages.get("config.receiptListener"));
        }
        return new ReceiptSettings(enabled, address, className, listeners, timeoutSeconds, queue);
    }

    ReceiptSettings withListener(XAccelReceiptListener listener) {
        List<XAccelReceiptListener> more = new java.util.ArrayList<>(listeners);
        more.add(java.util.Objects.requireNonNull(listener, InitParams.RECEIPT_LISTENER));
        return new ReceiptSettings(enabled, address, listenerClass, more, timeoutSeconds, queue);
    }

    ReceiptSettings withTimeout(long seconds) {
        if (seconds < 1 || seconds > 7 * 24 * 3600) {
            throw ConfigException.invalid(InitParams.RECEIPT_TIMEOUT, seconds, Messages.get("config.receiptTimeout"));
        }
        return new ReceiptSettings(enabled, address, listenerClass, listeners, seconds, queue);
    }

    ReceiptSettings withQueue(long size) {
        if (size < 1 || size > 10_000_000) {
            throw ConfigException.invalid(InitParams.RECEIPT_QUEUE, size, Messages.get("config.receiptQueue"));
        }
        return new ReceiptSettings(enabled, address, listenerClass, listeners, timeoutSeconds, (int) size);
    }
}
