package dev.xaccel.filter;

/**
 * The init-param names and defaults {@link XAccelFilter} used to declare itself ({@code XAccelFilter.PARAM_...}),
 * kept so that code using them still compiles: every constant here is deprecated in favour of its twin in
 * {@link InitParams}, the one home of names and defaults.
 */
public interface XAccelFilterConstants {

    /** @deprecated use {@link InitParams#LOCATIONS} */
    @Deprecated
    String PARAM_LOCATIONS = InitParams.LOCATIONS;
    /** @deprecated use {@link InitParams#MAPPINGS} */
    @Deprecated
    String PARAM_MAPPINGS = InitParams.MAPPINGS;
    /** @deprecated use {@link InitParams#OFFLOAD} */
    @Deprecated
    String PARAM_OFFLOAD = InitParams.OFFLOAD;
    /** @deprecated use {@link InitParams#TRUSTED_PROXIES} */
    @Deprecated
    String PARAM_TRUSTED_PROXIES = InitParams.TRUSTED_PROXIES;
    /** @deprecated use {@link InitParams#MARKER_HEADER} */
    @Deprecated
    String PARAM_MARKER_HEADER = InitParams.MARKER_HEADER;
    /** @deprecated use {@link InitParams#HEADER_TYPE} */
    @Deprecated
    String PARAM_HEADER_TYPE = InitParams.HEADER_TYPE;
    /** @deprecated use {@link InitParams#LIMIT_RATE} */
    @Deprecated
    String PARAM_LIMIT_RATE = InitParams.LIMIT_RATE;
    /** @deprecated use {@link InitParams#CHARSET} */
    @Deprecated
    String PARAM_CHARSET = InitParams.CHARSET;
    /** @deprecated use {@link InitParams#ACCEL_EXPIRES} */
    @Deprecated
    String PARAM_ACCEL_EXPIRES = InitParams.ACCEL_EXPIRES;
    /** @deprecated use {@link InitParams#CACHE_CONTROL} */
    @Deprecated
    String PARAM_CACHE_CONTROL = InitParams.CACHE_CONTROL;
    /** @deprecated use {@link InitParams#DISPOSITION} */
    @Deprecated
    String PARAM_DISPOSITION = InitParams.DISPOSITION;
    /** @deprecated use {@link InitParams#ALLOW_UNMAPPED} */
    @Deprecated
    String PARAM_ALLOW_UNMAPPED = InitParams.ALLOW_UNMAPPED;
    /** @deprecated use {@link InitParams#ALLOW_HIDDEN} */
    @Deprecated
    String PARAM_ALLOW_HIDDEN = InitParams.ALLOW_HIDDEN;
    /** @deprecated use {@link InitParams#SYMLINKS} */
    @Deprecated
    String PARAM_SYMLINKS = InitParams.SYMLINKS;
    /** @deprecated use {@link InitParams#DEFAULT_CONTENT_TYPE} */
    @Deprecated
    String PARAM_DEFAULT_CONTENT_TYPE = InitParams.DEFAULT_CONTENT_TYPE;
    /** @deprecated use {@link InitParams#SENDFILE} */
    @Deprecated
    String PARAM_SENDFILE = InitParams.SENDFILE;
    /** @deprecated use {@link InitParams#JMX_NAME} */
    @Deprecated
    String PARAM_JMX_NAME = InitParams.JMX_NAME;
    /** @deprecated use {@link InitParams#CACHE_VARY} */
    @Deprecated
    String PARAM_CACHE_VARY = InitParams.CACHE_VARY;
    /** @deprecated use {@link InitParams#SIGNED_LINK_SECRET} */
    @Deprecated
    String PARAM_SIGNED_LINK_SECRET = InitParams.SIGNED_LINK_SECRET;
    /** @deprecated use {@link InitParams#SIGNED_LINK_PREFIX} */
    @Deprecated
    String PARAM_SIGNED_LINK_PREFIX = InitParams.SIGNED_LINK_PREFIX;
    /** @deprecated use {@link InitParams#SIGNED_LINK_TTL} */
    @Deprecated
    String PARAM_SIGNED_LINK_TTL = InitParams.SIGNED_LINK_TTL;
    /** @deprecated use {@link InitParams#JMX_NAME_NONE} */
    @Deprecated
    String JMX_NAME_NONE = InitParams.JMX_NAME_NONE;
    /** @deprecated use {@link InitParams#DEFAULT_OFFLOAD} */
    @Deprecated
    String DEFAULT_OFFLOAD_VALUE = InitParams.DEFAULT_OFFLOAD;
    /** @deprecated use {@link OffloadMode#AUTO} */
    @Deprecated
    OffloadMode DEFAULT_OFFLOAD = OffloadMode.AUTO;
    /** @deprecated use {@link InitParams#DEFAULT_TRUSTED_PROXIES} */
    @Deprecated
    String DEFAULT_TRUSTED_PROXIES = InitParams.DEFAULT_TRUSTED_PROXIES;
    /** @deprecated use {@link InitParams#DEFAULT_MARKER_HEADER} */
    @Deprecated
    String DEFAULT_MARKER_HEADER = InitParams.DEFAULT_MARKER_HEADER;
    /** @deprecated use {@link InitParams#DEFAULT_HEADER_TYPE} */
    @Deprecated
    String DEFAULT_HEADER_TYPE = InitParams.DEFAULT_HEADER_TYPE;
    /** @deprecated use {@link InitParams#DEFAULT_DISPOSITION} */
    @Deprecated
    String DEFAULT_DISPOSITION = InitParams.DEFAULT_DISPOSITION;
    /** @deprecated the default is {@code false} */
    @Deprecated
    boolean DEFAULT_ALLOW_UNMAPPED = false;
    /** @deprecated the default is {@code false} */
    @Deprecated
    boolean DEFAULT_ALLOW_HIDDEN = false;
    /** @deprecated use {@link InitParams#DEFAULT_SYMLINKS} */
    @Deprecated
    String DEFAULT_SYMLINKS = InitParams.DEFAULT_SYMLINKS;
    /** @deprecated use {@link InitParams#DEFAULT_DEFAULT_CONTENT_TYPE} */
    @Deprecated
    String DEFAULT_DEFAULT_CONTENT_TYPE = InitParams.DEFAULT_DEFAULT_CONTENT_TYPE;
    /** @deprecated the default is {@code false} (sendfile re-opens files by name) */
    @Deprecated
    boolean DEFAULT_SENDFILE = false;
    /** @deprecated use {@link InitParams#DEFAULT_CACHE_VARY} */
    @Deprecated
    String DEFAULT_CACHE_VARY = InitParams.DEFAULT_CACHE_VARY;
    /** @deprecated use {@link InitParams#DEFAULT_SIGNED_LINK_TTL} */
    @Deprecated
    long DEFAULT_SIGNED_LINK_TTL = InitParams.DEFAULT_SIGNED_LINK_TTL;

}
