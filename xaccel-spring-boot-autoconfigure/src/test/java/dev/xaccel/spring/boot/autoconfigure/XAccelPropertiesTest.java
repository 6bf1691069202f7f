package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.mock.web.MockFilterConfig;
import org.springframework.mock.web.MockServletContext;

import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.FrontEnd;
import dev.xaccel.filter.HeaderType;
import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.OffloadMode;
import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.filter.XAccelFilter;

/**
 * {@link XAccelProperties} against the filter's one table of init-params: a property for every
 * {@link XAccelFilter#PARAMS} entry and no other but the Spring integration's own, the defaults of
 * {@link InitParams}, and every property reaching the filter (its configuration line shows it).
 */
class XAccelPropertiesTest {

    /** The properties of the Spring integration itself, not init-params. */
    static final Set<String> SPRING_ONLY = Set.of("enabled", "filterOrder", "returnValues", "staticResources");

    @TempDir
    Path media;

    @Test
    void everyInitParamIsAPropertyOfTheSameNameAndThereIsNoOther() {
        BeanWrapper bean = new BeanWrapperImpl(new XAccelProperties());
        for (String param : XAccelFilter.PARAMS) {
            assertThat(bean.isReadableProperty(param) && bean.isWritableProperty(param))
                    .as("init-param %s has no property %s in XAccelProperties", param,
                            XAccelProperties.propertyOf(param))
                    .isTrue();
        }
        Set<String> properties = new TreeSet<>();
        for (PropertyDescriptor d : bean.getPropertyDescriptors()) {
            if (d.getWriteMethod() != null) {
                properties.add(d.getName());
            }
        }
        properties.removeAll(XAccelFilter.PARAMS);
        assertThat(properties).as("properties that are no init-param").isEqualTo(new TreeSet<>(SPRING_ONLY));
    }

    @Test
    void propertyNamesAreTheInitParamsInKebabCase() {
        assertThat(XAccelProperties.propertyOf("trustedProxies")).isEqualTo("xaccel.trusted-proxies");
        assertThat(XAccelProperties.propertyOf("offload")).isEqualTo("xaccel.offload");
        assertThat(XAccelProperties.propertyOf("signedLinkTtl")).isEqualTo("xaccel.signed-link-ttl");
    }

    /** Every {@code DEFAULT_X} of InitParams is the default of the property of init-param {@code X}. */
    @Test
    void defaultsAreThoseOfInitParams() throws Exception {
        BeanWrapper bean = new BeanWrapperImpl(new XAccelProperties());
        int compared = 0;
        for (Field f : InitParams.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || !f.getName().startsWith("DEFAULT_")
                    || XAccelFilter.PARAMS.contains(String.valueOf(f.get(null)))) {
                continue; // DEFAULT_CONTENT_TYPE is the name of init-param defaultContentType
            }
            String param = (String) InitParams.class.getField(f.getName().substring("DEFAULT_".length())).get(null);
            Object value = bean.getPropertyValue(param);
            assertThat(shown(value)).as("default of %s", XAccelProperties.propertyOf(param))
                    .isEqualTo(String.valueOf(f.get(null)));
            compared++;
        }
        assertThat(compared).isGreaterThanOrEqualTo(11);
        XAccelProperties p = new XAccelProperties();
        assertThat(p.isAllowUnmapped() || p.isAllowHidden() || p.isSendfile()).isFalse();
        assertThat(p.getLocations()).isEmpty();
        assertThat(Arrays.asList(p.getLimitRate(), p.getCharset(), p.getAccelExpires(), p.getCacheControl(),
                p.getJmxName(), p.getSignedLinkSecret(), p.getSignedLinkPrefix(), p.getRemoteOrigins()))
                .containsOnlyNulls();
    }

    /** The filter built from default properties says the same as one configured by web.xml defaults. */
    @Test
    void defaultPropertiesGiveTheFiltersDefaultConfiguration() throws Exception {
        XAccelFilter byInitParams = new XAccelFilter();
        MockFilterConfig config = new MockFilterConfig(new MockServletContext(), "by-init-params");
        config.addInitParameter(InitParams.LOCATIONS, media + " => /_xaccel/media/");
        byInitParams.init(config);
        String expected = byInitParams.getStatistics().getConfiguration();
        byInitParams.destroy();

        assertThat(line(p -> { })).isEqualTo(expected);
    }

    /** A non-default value of each init-param's property shows up in the filter's configuration line. */
    @Test
    void everyPropertyReachesTheFilter() throws Exception {
        Path other = Files.createDirectories(media.resolve("lib"));
        Map<String, Consumer<XAccelProperties>> set = new LinkedHashMap<>();
        Map<String, String> shows = new LinkedHashMap<>();
        case_(set, shows, InitParams.LOCATIONS, p -> p.getLocations().get(0).setExpires(30L), "expires=30");
        case_(set, shows, InitParams.MAPPINGS, p -> p.getMappings().add(mapping("/lib/", other)),
                "mappings=[/lib/ => " + other.toRealPath() + "]");
        case_(set, shows, InitParams.OFFLOAD, p -> p.setOffload(OffloadMode.NEVER), "offload=never");
        case_(set, shows, InitParams.TRUSTED_PROXIES, p -> p.setTrustedProxies("10.0.0.0/8"),
                "trustedProxies=[10.0.0.0/8]");
        case_(set, shows, InitParams.MARKER_HEADER, p -> p.setMarkerHeader("X-Front"), "markerHeader=X-Front");
        case_(set, shows, InitParams.HEADER_TYPE, p -> p.setHeaderType(HeaderType.X_SENDFILE), "headerType=X-Sendfile");
        case_(set, shows, InitParams.LIMIT_RATE, p -> p.setLimitRate(1000L), "limitRate=1000");
        case_(set, shows, InitParams.CHARSET, p -> p.setCharset("utf-8"), "charset=utf-8");
        case_(set, shows, InitParams.ACCEL_EXPIRES, p -> p.setAccelExpires("@1700000000"), "accelExpires=@1700000000");
        case_(set, shows, InitParams.CACHE_CONTROL, p -> p.setCacheControl("private"), "cacheControl=private");
        case_(set, shows, InitParams.DISPOSITION, p -> p.setDisposition(Disposition.ATTACHMENT),
                "disposition=attachment");
        case_(set, shows, InitParams.ALLOW_UNMAPPED, p -> p.setAllowUnmapped(true), "allowUnmapped=true");
        case_(set, shows, InitParams.ALLOW_HIDDEN, p -> p.setAllowHidden(true), "allowHidden=true");
        case_(set, shows, InitParams.SYMLINKS, p -> p.setSymlinks(SymlinkPolicy.NEVER), "symlinks=never");
        case_(set, shows, InitParams.DEFAULT_CONTENT_TYPE, p -> p.setDefaultContentType("text/plain"),
                "defaultContentType=text/plain");
        case_(set, shows, InitParams.SENDFILE, p -> p.setSendfile(true), "sendfile=true");
        case_(set, shows, InitParams.FRONT_END_CONFINES, p -> p.setFrontEndConfines(true), "frontEndConfines=true");
        case_(set, shows, InitParams.FRONT_END, p -> p.setFrontEnd(FrontEnd.NGINX), "frontEnd=nginx");
        case_(set, shows, InitParams.CACHE_VARY, p -> p.setCacheVary("Cookie"), "cacheVary=Cookie,");
        case_(set, shows, InitParams.CONTENT_SECURITY_POLICY, p -> p.setContentSecurityPolicy("none"),
                "contentSecurityPolicy=none");
        case_(set, shows, InitParams.MAX_REDIRECT_LENGTH, p -> p.setMaxRedirectLength(4096), "maxRedirectLength=4096");
        case_(set, shows, InitParams.HELD_DIRECTORIES, p -> p.setHeldDirectories(100), "heldDirectories=100");
        case_(set, shows, InitParams.SMALL_FILE_CACHE_SIZE, p -> p.setSmallFileCacheSize(0), "smallFileCacheSize=0,");
        case_(set, shows, InitParams.SMALL_FILE_MAX_SIZE, p -> p.setSmallFileMaxSize(1000), "smallFileMaxSize=1000,");
        case_(set, shows, InitParams.REMOTE_ORIGINS, p -> p.setRemoteOrigins("http://127.0.0.1:9000"),
                "remoteOrigins=http://127.0.0.1:9000");
        case_(set, shows, InitParams.SIGNED_LINK_SECRET, XAccelPropertiesTest::signed, "signedLinkSecret=(set)");
        case_(set, shows, InitParams.SIGNED_LINK_PREFIX, XAccelPropertiesTest::signed, "signedLinkPrefix=/s/media/");
        case_(set, shows, InitParams.SIGNED_LINK_TTL, p -> {
            signed(p);
            p.setSignedLinkTtl(60);
        }, "signedLinkTtl=60");
        case_(set, shows, InitParams.JMX_NAME, p -> p.setJmxName("dev.xaccel:type=Test,name=reach"),
                "jmxName=dev.xaccel:type=Test,name=reach");
        case_(set, shows, InitParams.RECEIPTS, p -> p.setReceipts("direct"), "receipts=direct");
        case_(set, shows, InitParams.RECEIPT_LISTENER, p -> p.setReceiptListener(CountingListener.class.getName()),
                "receiptListener=" + CountingListener.class.getName());
        case_(set, shows, InitParams.RECEIPT_TIMEOUT, p -> p.setReceiptTimeout(60), "receiptTimeout=60");
        case_(set, shows, InitParams.RECEIPT_QUEUE, p -> p.setReceiptQueue(5), "receiptQueue=5");
        assertThat(set.keySet()).as("a case for every init-param")
                .containsExactlyInAnyOrderElementsOf(XAccelFilter.PARAMS);
        for (String param : set.keySet()) {
            assertThat(line(set.get(param))).as("%s reaches the filter", XAccelProperties.propertyOf(param))
                    .contains(shows.get(param));
        }
    }

    /** A receipt listener named by class. */
    public static final class CountingListener implements dev.xaccel.filter.XAccelReceiptListener {
        @Override
        public void onReceipt(dev.xaccel.filter.XAccelReceipt receipt) {
            // counted by the filter's own counters; nothing more needed here
        }
    }

    private static void case_(Map<String, Consumer<XAccelProperties>> set, Map<String, String> shows, String param,
            Consumer<XAccelProperties> setter, String shown) {
        set.put(param, setter);
        shows.put(param, shown);
    }

    private static void signed(XAccelProperties p) {
        p.setSignedLinkSecret("0123456789abcdefghijklmnopqrstuvwxyz");
        p.setSignedLinkPrefix("/s/media/");
    }

    private static XAccelProperties.Mapping mapping(String prefix, Path root) {
        XAccelProperties.Mapping m = new XAccelProperties.Mapping();
        m.setUrlPrefix(prefix);
        m.setRoot(root);
        return m;
    }

    /** The configuration line of the filter the factory builds from default properties plus {@code change}. */
    private String line(Consumer<XAccelProperties> change) throws Exception {
        XAccelProperties p = new XAccelProperties();
        XAccelProperties.Location l = new XAccelProperties.Location();
        l.setRoot(media);
        l.setUri("/_xaccel/media/");
        p.getLocations().add(l);
        change.accept(p);
        XAccelFilter filter = XAccelFilterFactory.create(p);
        filter.init(new MockFilterConfig(new MockServletContext(), "by-properties"));
        try {
            return filter.getStatistics().getConfiguration();
        } finally {
            filter.destroy();
        }
    }

    /** A property value in init-param spelling. */
    private static String shown(Object value) {
        if (value instanceof OffloadMode m) {
            return m.paramValue();
        }
        if (value instanceof HeaderType t) {
            return t.headerName();
        }
        if (value instanceof Disposition d) {
            return d.token();
        }
        if (value instanceof SymlinkPolicy s) {
            return s.paramValue();
        }
        if (value instanceof FrontEnd e) {
            return e.paramValue();
        }
        return String.valueOf(value);
    }
}
