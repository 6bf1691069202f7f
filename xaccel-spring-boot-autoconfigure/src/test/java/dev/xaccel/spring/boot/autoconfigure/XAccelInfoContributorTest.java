package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockFilterConfig;
import org.springframework.mock.web.MockServletContext;

import dev.xaccel.filter.XAccelFilter;

/**
 * The {@code info} contribution of the auto-configured, started filter: counters and the started state by default,
 * the configuration (with the data root's absolute path) only with {@code xaccel.info.show-configuration=true}.
 */
class XAccelInfoContributorTest {

    @TempDir
    Path media;

    private WebApplicationContextRunner runner() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(XAccelAutoConfiguration.class,
                        XAccelInfoAutoConfiguration.class))
                .withPropertyValues("xaccel.locations[0].root=" + media, "xaccel.locations[0].uri=/_xaccel/media/",
                        "xaccel.jmx-name=none");
    }

    @Test
    void byDefaultNoConfigurationAndNoPath() {
        runner().run(ctx -> {
            String shown = info(ctx).toString();
            assertThat(shown).contains("started=true", "offloaded=0", "rejected=0")
                    .doesNotContain("configuration").doesNotContain(media.toRealPath().toString())
                    .doesNotContain("trustedProxies").doesNotContain("/_xaccel/media/");
        });
    }

    @Test
    void theConfigurationOnlyWhenAskedFor() {
        runner().withPropertyValues("xaccel.info.show-configuration=true").run(ctx -> {
            Map<String, Object> one = info(ctx);
            assertThat(one).containsEntry("started", true);
            assertThat((String) one.get("configuration")).contains(media.toRealPath().toString())
                    .contains("/_xaccel/media/").contains("trustedProxies=");
        });
    }

    /** The contribution of the filter {@code xaccel}, the filter started as the servlet container would. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> info(ApplicationContext ctx) throws Exception {
        FilterRegistrationBean<XAccelFilter> r = ctx.getBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME,
                FilterRegistrationBean.class);
        XAccelFilter filter = r.getFilter();
        filter.init(new MockFilterConfig(new MockServletContext(), XAccelAutoConfiguration.FILTER_NAME));
        try {
            Info.Builder builder = new Info.Builder();
            ctx.getBean(XAccelInfoContributor.class).contribute(builder);
            Map<String, Object> xaccel = (Map<String, Object>) builder.build().getDetails().get("xaccel");
            Map<String, Object> filters = (Map<String, Object>) xaccel.get("filters");
            return (Map<String, Object>) filters.get(XAccelAutoConfiguration.FILTER_NAME);
        } finally {
            filter.destroy();
        }
    }
}
