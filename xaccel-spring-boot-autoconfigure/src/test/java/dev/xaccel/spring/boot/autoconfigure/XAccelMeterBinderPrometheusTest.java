package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockFilterConfig;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.testsupport.TestPaths;

/**
 * The meters as Prometheus scrapes them, through Micrometer's Prometheus registry: names without a doubled unit
 * ({@code xaccel_sent_bytes_total}, not {@code xaccel_bytes_direct_bytes_total}), the in-flight gauge, the tags.
 * docs/spring-boot.md shows this rendering; the test compares the doc's block with it, so the doc cannot drift.
 */
class XAccelMeterBinderPrometheusTest {

    private static final String DOC_START = "<!-- prometheus rendering: XAccelMeterBinderPrometheusTest -->\n```\n";

    @TempDir
    Path media;

    @Test
    void metersRenderAsPrometheusNamesThemAndAsTheDocShowsThem() throws Exception {
        Files.write(media.resolve("a.bin"), new byte[1234]);
        XAccelFilter filter = XAccelFilter.builder().location(media, "/_xaccel/media/").mapping("/media/", media)
                .jmxName("none").receipts("direct").build();
        filter.init(new MockFilterConfig(new MockServletContext(), "xaccel"));
        try {
            for (String path : new String[] {"/media/a.bin", "/media/a.bin", "/media/gone.bin"}) {
                MockHttpServletRequest req = new MockHttpServletRequest("GET", path);
                req.setServletPath(path);
                filter.doFilter(req, new MockHttpServletResponse(), new MockFilterChain());
            }
            DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
            FilterRegistrationBean<XAccelFilter> registration = new FilterRegistrationBean<>(filter);
            registration.setName("xaccel");
            beans.registerSingleton("xaccelFilterRegistration", registration);
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new XAccelMeterBinder(new XAccelFilters(registrations(beans))).bindTo(registry);
            String scrape = registry.scrape();

            assertThat(scrape).contains("xaccel_requests_total{filter=\"xaccel\",outcome=\"direct\"} 2.0\n",
                    "xaccel_requests_total{filter=\"xaccel\",outcome=\"not_found\"} 1.0\n",
                    "xaccel_sent_bytes_total{filter=\"xaccel\"} 2468.0\n",
                    "xaccel_deliveries_active{filter=\"xaccel\"} 0.0\n",
                    "xaccel_receipts_total{filter=\"xaccel\",outcome=\"complete\"} 2.0\n",
                    "xaccel_receipts_sent_bytes_total{filter=\"xaccel\",served_by=\"filter\"} 2468.0\n",
                    "xaccel_receipts_unmatched_lines_total{filter=\"xaccel\",reason=\"forged\"} 0.0\n",
                    "xaccel_receipts_dropped_total{filter=\"xaccel\"} 0.0\n")
                    .doesNotContain("bytes_bytes", "requests_requests");
            String doc = Files.readString(TestPaths.repositoryFile("docs/spring-boot.md"), StandardCharsets.UTF_8);
            int start = doc.indexOf(DOC_START);
            assertThat(start).as("docs/spring-boot.md has the block after %s", DOC_START.trim()).isNotNegative();
            String block = doc.substring(start + DOC_START.length(), doc.indexOf("```", start + DOC_START.length()));
            assertThat(block).as("docs/spring-boot.md's Prometheus block (paste the expected value)")
                    .isEqualTo(onlyXaccel(scrape));
        } finally {
            filter.destroy();
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static ObjectProvider<FilterRegistrationBean<?>> registrations(DefaultListableBeanFactory beans) {
        return (ObjectProvider) beans.getBeanProvider(FilterRegistrationBean.class);
    }

    /** The scrape's lines of the xaccel meters (the registry has none other here; kept for safety). */
    private static String onlyXaccel(String scrape) {
        return Arrays.stream(scrape.split("\n")).filter(l -> l.contains("xaccel_"))
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
