package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ContentDisposition;

import dev.xaccel.spring.boot.autoconfigure.app.TestMedia;
import dev.xaccel.testsupport.RawHttp;

/**
 * The same application without a front end (no marker header): the filter serves the files of plain Spring MVC
 * answers itself, with its Range, conditional-request and HEAD handling, byte for byte.
 */
class DirectDeliveryIT extends LibraryAppTestBase {

    @Autowired
    MeterRegistry meters;

    private RawHttp.Response direct(RawHttp.Request request) {
        return request.send(tomcatPort);
    }

    @Test
    void awkwardNamesAreServedDirectly() {
        for (int i = 0; i < TestMedia.NAMES.size(); i++) {
            String name = TestMedia.NAMES.get(i);
            RawHttp.Response r = direct(get("/files/" + i, "reader"));
            assertThat(r.status()).as(name).isEqualTo(200);
            assertThat(r.body()).as(name).isEqualTo(TestMedia.content(i));
            assertThat(r.header("X-Accel-Redirect")).as(name).isNull();
            assertThat(r.header("Content-Type")).as(name).isEqualTo("application/x-test-" + i);
            assertThat(ContentDisposition.parse(r.header("Content-Disposition")).getFilename()).as(name)
                    .isEqualTo(TestMedia.fileName(i));
            assertThat(r.header("Accept-Ranges")).as(name).isEqualTo("bytes");
            assertThat(r.header("X-Library")).as(name).isEqualTo("book-" + i);
            assertThat(r.header("X-Content-Type-Options")).as(name).isEqualTo("nosniff");
        }
    }

    @Test
    void rangesAreTheFilters() {
        byte[] file = TestMedia.content(8);
        RawHttp.Response r = direct(get("/files/8", "reader").header("Range", "bytes=5-9"));
        assertThat(r.status()).isEqualTo(206);
        assertThat(r.header("Content-Range")).isEqualTo("bytes 5-9/" + file.length);
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(file, 5, 10));

        r = direct(get("/files/8", "reader").header("Range", "bytes=0-1,-3"));
        assertThat(r.status()).isEqualTo(206);
        List<RawHttp.Part> parts = RawHttp.byteranges(r);
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).data()).isEqualTo(Arrays.copyOfRange(file, 0, 2));
        assertThat(parts.get(1).data()).isEqualTo(Arrays.copyOfRange(file, file.length - 3, file.length));

        r = direct(get("/files/8", "reader").header("Range", "bytes=" + file.length + "-"));
        assertThat(r.status()).isEqualTo(416);
    }

    @Test
    void conditionalRequestsAreTheFilters() {
        RawHttp.Response first = direct(get("/files/6", "reader"));
        String etag = first.header("ETag");
        String lastModified = first.header("Last-Modified");
        assertThat(etag).isNotNull();
        assertThat(lastModified).isNotNull();

        RawHttp.Response r = direct(get("/files/6", "reader").header("If-None-Match", etag));
        assertThat(r.status()).isEqualTo(304);
        assertThat(r.body()).isEmpty();
        r = direct(get("/files/6", "reader").header("If-Modified-Since", lastModified));
        assertThat(r.status()).isEqualTo(304);
        r = direct(get("/files/6", "reader").header("If-Range", "\"other\"").header("Range", "bytes=0-0"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(TestMedia.content(6));
        r = direct(get("/files/6", "reader").header("If-Match", "\"other\""));
        assertThat(r.status()).isEqualTo(412);
    }

    @Test
    void headIsTheFilters() {
        RawHttp.Response r = direct(RawHttp.head("/files/2").header("Authorization", basic("reader")));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Length")).isEqualTo(Integer.toString(TestMedia.content(2).length));
        assertThat(r.body()).isEmpty();
    }

    @Test
    void staticResourcesAreServedByTheFilterWithRangeAnd304() {
        RawHttp.Response r = direct(get("/static/site.css", null));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(CSS);
        assertThat(r.header("Content-Type")).startsWith("text/css");
        assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");

        RawHttp.Response notModified = direct(get("/static/site.css", null)
                .header("If-Modified-Since", r.header("Last-Modified")));
        assertThat(notModified.status()).isEqualTo(304);

        RawHttp.Response range = direct(get("/static/big.bin", null).header("Range", "bytes=1-3,7-8"));
        assertThat(range.status()).isEqualTo(206);
        List<RawHttp.Part> parts = RawHttp.byteranges(range);
        assertThat(parts.get(0).data()).isEqualTo(Arrays.copyOfRange(BIG, 1, 4));
        assertThat(parts.get(1).data()).isEqualTo(Arrays.copyOfRange(BIG, 7, 9));
    }

    @Test
    void directDeliveriesAndTheirBytesAreCounted() {
        double files = meters.get(XAccelMeterBinder.REQUESTS).tag("outcome", "direct").functionCounter().count();
        double bytes = meters.get(XAccelMeterBinder.SENT).functionCounter().count();
        direct(get("/files/1", "reader"));
        assertThat(meters.get(XAccelMeterBinder.REQUESTS).tag("outcome", "direct").functionCounter().count())
                .isEqualTo(files + 1);
        assertThat(meters.get(XAccelMeterBinder.SENT).functionCounter().count())
                .isEqualTo(bytes + TestMedia.content(1).length);
    }
}
