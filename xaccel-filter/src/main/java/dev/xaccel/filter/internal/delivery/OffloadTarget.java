package dev.xaccel.filter.internal.delivery;

/** What an offload answer hands to the front end: a local file's headers or a remote object's redirect. */
public interface OffloadTarget {

    /** The bytes its header values take on the wire, checked against {@code maxRedirectLength}. */
    int length();
}
