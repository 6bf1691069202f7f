package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;

import jakarta.servlet.DispatcherType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import io.micrometer.core.instrument.binder.MeterBinder;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.spring.boot.autoconfigure.mvc.FileReturnValueHandlerInstaller;
import dev.xaccel.spring.boot.autoconfigure.mvc.StaticResourceOffloader;
import dev.xaccel.spring.boot.autoconfigure.mvc.XAccelMvcAutoConfiguration;
import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterNotice;
import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterTomcatCustomizer;
import dev.xaccel.spring.boot.autoconfigure.tomcat.XAccelConnectorAutoConfiguration;
import dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol;

/** The auto-configurations' beans and conditions, without a server. */
class XAccelAutoConfigurationTest {

    private static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyz-SECRET";

    @TempDir
    Path media;

    private WebApplicationContextRunner runner() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(XAccelAutoConfiguration.class,
                        XAccelMvcAutoConfiguration.class, XAccelMetricsAutoConfiguration.class,
                        XAccelInfoAutoConfiguration.class, XAccelConnectorAutoConfiguration.class))
                .withPropertyValues("xaccel.locations[0].root=" + media, "xaccel.locations[0].uri=/_xaccel/media/",
                        "xaccel.jmx-name=none");
    }

    @Test
    void registersTheFilterForEveryUrlRightAfterSpringSecurity() {
        runner().withConfiguration(AutoConfigurations.of(SecurityAutoConfiguration.class,
                ServletWebSecurityAutoConfiguration.class, SecurityFilterAutoConfiguration.class)).run(ctx -> {
                    @SuppressWarnings("unchecked")
                    FilterRegistrationBean<XAccelFilter> r = ctx.getBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME,
                            FilterRegistrationBean.class);
                    assertThat(r.getFilter()).isInstanceOf(XAccelFilter.class);
                    assertThat(r.getFilterName()).isEqualTo("xaccel");
                    assertThat(r.getUrlPatterns()).containsExactly("/*");
                    assertThat(r.determineDispatcherTypes())
                            .isEqualTo(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
                    assertThat(r.isAsyncSupported()).isTrue();
                    assertThat(r.getOrder()).isEqualTo(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
                    DelegatingFilterProxyRegistrationBean security =
                            ctx.getBean(DelegatingFilterProxyRegistrationBean.class);
                    assertThat(r.getOrder()).isGreaterThan(security.getOrder());
                    assertThat(ctx).hasSingleBean(FileReturnValueHandlerInstaller.class)
                            .doesNotHaveBean(StaticResourceOffloader.class).doesNotHaveBean(SignedLinks.class);
                });
    }

    @Test
    void theRegistrationIsReplacedByABeanOfItsName() {
        runner().withUserConfiguration(OwnRegistration.class).run(ctx -> {
            assertThat(ctx.getBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME)).isSameAs(OwnRegistration.MINE);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistration {
        static final FilterRegistrationBean<XAccelFilter> MINE = new FilterRegistrationBean<>();

        @Bean(name = XAccelAutoConfiguration.REGISTRATION_BEAN_NAME)
        FilterRegistrationBean<XAccelFilter> xaccelFilterRegistration() {
            return MINE;
        }
    }

    @Test
    void nothingWhenDisabledOrNotAServletApplication() {
        runner().withPropertyValues("xaccel.enabled=false").run(ctx -> assertThat(ctx)
                .doesNotHaveBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME)
                .doesNotHaveBean(FileReturnValueHandlerInstaller.class).doesNotHaveBean(XAccelMeterBinder.class));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(XAccelAutoConfiguration.class))
                .run(ctx -> assertThat(ctx).doesNotHaveBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME));
        runner().withClassLoader(new FilteredClassLoader(XAccelFilter.class))
                .run(ctx -> assertThat(ctx).doesNotHaveBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME));
    }

    @Test
    void anInvalidValueFailsTheStartupNamingThePropertyAndTheValue() {
        runner().withPropertyValues("xaccel.trusted-proxies=10.0.0.300").run(ctx -> {
            InvalidXAccelPropertyException e = refusal(ctx.getStartupFailure());
            assertThat(e.getProperty()).isEqualTo("xaccel.trusted-proxies");
            assertThat(e.getMessage()).contains("xaccel.trusted-proxies").contains("[10.0.0.300]")
                    .contains("init-param [trustedProxies]");
        });
        runner().withPropertyValues("xaccel.max-redirect-length=100").run(ctx -> assertThat(
                refusal(ctx.getStartupFailure()).getMessage()).contains("xaccel.max-redirect-length")
                .contains("[100]"));
        runner().withPropertyValues("xaccel.locations[0].root=/no/such/dir", "xaccel.locations[0].uri=/_x/")
                .run(ctx -> assertThat(refusal(ctx.getStartupFailure()).getMessage()).contains("xaccel.locations")
                        .contains("/no/such/dir").contains("existing directory"));
        new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(XAccelAutoConfiguration.class))
                .run(ctx -> assertThat(refusal(ctx.getStartupFailure()).getMessage()).contains("xaccel.locations")
                        .contains("xaccel.locations[0].root"));
    }

    @Test
    void aValueSpringCannotConvertFailsTheStartupNamingThePropertyAndTheValue() {
        runner().withPropertyValues("xaccel.offload=sometimes").run(ctx -> {
            String all = messages(ctx.getStartupFailure());
            assertThat(all).contains("xaccel.offload").contains("sometimes");
        });
    }

    @Test
    void aRefusedSecretIsNeverShown() {
        String tooShort = "short-secret-value";
        runner().withPropertyValues("xaccel.signed-link-secret=" + tooShort, "xaccel.signed-link-prefix=/s/m/")
                .run(ctx -> {
                    InvalidXAccelPropertyException e = refusal(ctx.getStartupFailure());
                    assertThat(e.getProperty()).isEqualTo("xaccel.signed-link-secret");
                    FailureAnalysis analysis = new InvalidXAccelPropertyFailureAnalyzer()
                            .analyze(ctx.getStartupFailure());
                    assertThat(messages(ctx.getStartupFailure()) + analysis.getDescription() + analysis.getAction())
                            .contains("at least 32 characters").doesNotContain(tooShort);
                });
        runner().withPropertyValues("xaccel.signed-link-prefix=/s/m/").run(ctx -> assertThat(
                refusal(ctx.getStartupFailure()).getMessage()).contains("xaccel.signed-link-secret")
                .contains("required"));
    }

    @Test
    void aSecretThatIsSetButEmptyFailsStartup() {
        for (String empty : new String[] {"", "  "}) {
            runner().withPropertyValues("xaccel.signed-link-secret=" + empty).run(ctx -> {
                InvalidXAccelPropertyException e = refusal(ctx.getStartupFailure());
                assertThat(e.getProperty()).isEqualTo("xaccel.signed-link-secret");
                assertThat(e.getMessage()).contains("empty");
            });
        }
        runner().run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx).doesNotHaveBean(SignedLinks.class);
        });
    }

    @Test
    void signedLinksBeanWhenASecretIsSet() {
        runner().withPropertyValues("xaccel.signed-link-secret=" + SECRET, "xaccel.signed-link-prefix=/s/media/",
                "xaccel.signed-link-ttl=60").run(ctx -> {
                    SignedLinks links = ctx.getBean(SignedLinks.class);
                    assertThat(links.prefix()).isEqualTo("/s/media/");
                    assertThat(links.ttl().getSeconds()).isEqualTo(60);
                });
    }

    @Test
    void metersInfoAndConnectorOnlyWithTheirClasses() {
        runner().run(ctx -> assertThat(ctx).hasSingleBean(XAccelMeterBinder.class)
                .hasSingleBean(XAccelInfoContributor.class).hasSingleBean(AcceptFilterTomcatCustomizer.class)
                .doesNotHaveBean(AcceptFilterNotice.class));
        runner().withClassLoader(new FilteredClassLoader(MeterBinder.class, InfoContributor.class,
                AcceptFilterHttp11NioProtocol.class)).withPropertyValues("xaccel.connector.accept-filter=httpready")
                .run(ctx -> assertThat(ctx).hasBean(XAccelAutoConfiguration.REGISTRATION_BEAN_NAME)
                        .doesNotHaveBean(XAccelMeterBinder.class).doesNotHaveBean(XAccelInfoContributor.class)
                        .doesNotHaveBean(AcceptFilterTomcatCustomizer.class).hasSingleBean(AcceptFilterNotice.class));
        runner().withPropertyValues("management.info.xaccel.enabled=false", "xaccel.return-values=false")
                .run(ctx -> assertThat(ctx).doesNotHaveBean(XAccelInfoContributor.class)
                        .doesNotHaveBean(FileReturnValueHandlerInstaller.class));
    }

    @Test
    void staticResourcesOutsideEveryLocationFailTheStartup() {
        runner().withConfiguration(AutoConfigurations.of(DispatcherServletAutoConfiguration.class,
                WebMvcAutoConfiguration.class))
                .withPropertyValues("xaccel.static-resources=true",
                        "spring.web.resources.static-locations=file:" + System.getProperty("java.io.tmpdir") + "/")
                .run(ctx -> {
                    InvalidXAccelPropertyException e = refusal(ctx.getStartupFailure());
                    assertThat(e.getProperty()).isEqualTo("xaccel.static-resources");
                    assertThat(e.getMessage()).contains("lies inside no xaccel.locations root");
                });
        runner().withConfiguration(AutoConfigurations.of(DispatcherServletAutoConfiguration.class,
                WebMvcAutoConfiguration.class))
                .withPropertyValues("xaccel.static-resources=true",
                        "spring.web.resources.static-locations=" + media.toUri())
                .run(ctx -> assertThat(ctx).hasNotFailed().hasSingleBean(StaticResourceOffloader.class));
    }

    private static InvalidXAccelPropertyException refusal(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidXAccelPropertyException e) {
                return e;
            }
        }
        throw new AssertionError("no InvalidXAccelPropertyException in " + failure, failure);
    }

    private static String messages(Throwable failure) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append('\n');
        }
        assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isNotNull();
        return sb.toString();
    }
}
