package dev.xaccel.suite;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceiptListener;

/**
 * The application's receipt listener, named by the filter's {@code receiptListener} init-param as a web.xml would
 * (the filter makes it with the application's class loader, in whichever JVM the container runs): it keeps every
 * receipt as one line, which {@link ReceiptLogServlet} answers to the test, since a server in another JVM shares no
 * object with it.
 */
public final class ReceiptLog implements XAccelReceiptListener {

    /** Every receipt of this class loader's applications, oldest first, as {@link #line} writes it. */
    static final List<String> LINES = new CopyOnWriteArrayList<>();

    @Override
    public void onReceipt(XAccelReceipt r) {
        LINES.add(line(r));
    }

    /**
     * One receipt as a tab-separated line: outcome, served by, status, bytes, tag, ranges, file ({@code -} for
     * none). The file comes last: the only field that may hold a tab is the path as the application named it.
     */
    static String line(XAccelReceipt r) {
        return String.join("\t", r.outcome().name(), r.servedBy().name(), Integer.toString(r.status()),
                Long.toString(r.bytes()), orDash(r.tag()), orDash(r.ranges()), r.file());
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }
}
