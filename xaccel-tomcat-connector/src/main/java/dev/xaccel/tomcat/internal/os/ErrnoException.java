package dev.xaccel.tomcat.internal.os;

import java.io.IOException;

/** A failed system call, with the {@code errno} value it set. */
public class ErrnoException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The system call that failed, for example {@code setsockopt}. */
    private final String call;
    /** The {@code errno} value it set. */
    private final int errno;

    /**
     * @param call  the system call, for example {@code setsockopt}
     * @param errno the errno value
     */
    public ErrnoException(String call, int errno) {
        super(Messages.get("errno.failed", call, String.valueOf(errno)));
        this.call = call;
        this.errno = errno;
    }

    /** @return the system call that failed */
    public String call() {
        return call;
    }

    /** @return the errno value */
    public int errno() {
        return errno;
    }
}
