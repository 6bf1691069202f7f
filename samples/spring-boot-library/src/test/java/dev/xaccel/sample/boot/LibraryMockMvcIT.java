package dev.xaccel.sample.boot;

import static dev.xaccel.filter.Disposition.ATTACHMENT;
import static dev.xaccel.test.XAccelAssertions.assertThat;
import static dev.xaccel.test.XAccelResultMatchers.xaccel;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;

import jakarta.servlet.Filter;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * The library's downloads as an application team tests them with xaccel-test, without nginx: MockMvc through
 * Spring Security and the XAccelFilter. A request that carries nginx's marker (from loopback, as MockMvc's are) is
 * offloaded to the sample's internal location, as an attachment under the file's name; one without it gets the
 * file's bytes from the filter. The same application context as {@link LibraryNginxIT} (Spring's test context
 * cache starts it once): its embedded Tomcat initialized the filters MockMvc calls here.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"library.demo-root=target/it-demo-library", "xaccel.jmx-name=none"})
class LibraryMockMvcIT {

    @Autowired
    WebApplicationContext context;

    @Autowired
    @Qualifier("springSecurityFilterChain")
    Filter security;

    @Autowired
    @Qualifier("xaccelFilterRegistration")
    FilterRegistrationBean<?> xaccelFilter;

    @Autowired
    Catalog catalog;

    MockMvc mvc;

    @BeforeEach
    void mockMvc() {
        // in the container's order: Spring Security first, then the XAccelFilter
        mvc = MockMvcBuilders.webAppContextSetup(context).addFilters(security, xaccelFilter.getFilter()).build();
    }

    private static String demo() {
        return "Basic " + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));
    }

    private Catalog.Entry entry(String path) {
        return catalog.entries().stream().filter(e -> e.path().equals(path)).findFirst().orElseThrow();
    }

    @Test
    void behindNginxADownloadIsOffloadedAsAnAttachment() throws Exception {
        Catalog.Entry readme = entry("Readme.txt");
        mvc.perform(get("/files/" + readme.id()).header("Authorization", demo())
                .header("X-Sendfile-Type", "X-Accel-Redirect"))
                .andExpect(xaccel().offloadedTo("/_xaccel/library/Readme.txt"))
                .andExpect(xaccel().disposition(ATTACHMENT))
                .andExpect(xaccel().downloadName("Readme.txt"));

        Catalog.Entry report = entry("Reports/Q1 #1 (draft).txt");
        MvcResult result = mvc.perform(get("/files/" + report.id()).header("Authorization", demo())
                .header("X-Sendfile-Type", "X-Accel-Redirect")).andReturn();
        assertThat(result.getResponse()).isOffloaded()
                .toInternalUri("/_xaccel/library/Reports/Q1%20%231%20%28draft%29.txt")
                .withDisposition(ATTACHMENT).withDownloadName("Q1 #1 (draft).txt").withContentType("text/plain");
    }

    @Test
    void withoutNginxTheFilterSendsTheFile() throws Exception {
        Catalog.Entry readme = entry("Readme.txt");
        mvc.perform(get("/files/" + readme.id()).header("Authorization", demo()))
                .andExpect(status().isOk())
                .andExpect(xaccel().servedDirectly())
                .andExpect(xaccel().disposition(ATTACHMENT))
                .andExpect(content().bytes(Files.readAllBytes(catalog.file(readme))));
    }

    @Test
    void withoutAUserNothingIsOffloaded() throws Exception {
        mvc.perform(get("/files/" + entry("Readme.txt").id()).header("X-Sendfile-Type", "X-Accel-Redirect"))
                .andExpect(status().isUnauthorized());
    }
}
