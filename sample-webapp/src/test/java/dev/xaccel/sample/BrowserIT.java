package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.TestPaths;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real browser against the sample behind nginx: Debian's chromium + chromedriver (never a downloaded
 * browser or driver), headless. Logs in, checks every cover loaded (by signed links, which nginx verifies and
 * serves without Tomcat) and every author's picture (the same way), copies a book's podcast feed URL and revokes
 * its feed token with the page's buttons, plays a chapter, seeks to its middle,
 * and reads nginx's access log to see that the seek was a Range request answered 206 from the internal
 * location (nginx read the file; Tomcat only said where). And the admin's Deliveries section counts what nginx served
 * without Tomcat: a podcast enclosure and a signed cover link fetched by a plain HTTP client show up, one fetch
 * more each, in the page's enclosures and covers tables.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)   // the first one logs in from the login form
class BrowserIT {

    /** Bytes per second nginx sends one file (X-Accel-Limit-Rate): slow enough that a seek needs a new request. */
    static final int LIMIT_RATE = 150_000;

    static SampleStack stack;
    static ChromeDriverService service;
    static ChromeDriver browser;

    @BeforeAll
    static void start() throws Exception {
        ItSupport.require(ItSupport.CHROMIUM, "chromium");
        ItSupport.require(ItSupport.CHROMEDRIVER, "chromium-driver");
        stack = SampleStack.start("browser", Map.of("XACCEL_LIMIT_RATE", Integer.toString(LIMIT_RATE)));

        Path profile = TestPaths.fresh(ItSupport.work("browser/chromium-profile"));
        // explicit binary and driver: Selenium Manager is never asked to find or download anything
        System.setProperty("webdriver.chrome.driver", ItSupport.CHROMEDRIVER.toString());
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(ItSupport.CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(ItSupport.work("browser").resolve("chromedriver.log").toFile())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(ItSupport.CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--no-default-browser-check", "--mute-audio",
                "--autoplay-policy=no-user-gesture-required", "--window-size=1280,900",
                "--user-data-dir=" + profile);
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }

    private WebDriverWait waitUpTo(int seconds) {
        return new WebDriverWait(browser, Duration.ofSeconds(seconds));
    }

    @Test
    @Order(1)
    void logInSeeCoversPlayAndSeekServedByNginx() throws Exception {
        browser.get(stack.url("/"));
        waitUpTo(20).until(d -> d.findElement(By.id("login-form")).isDisplayed());
        browser.findElement(By.id("user")).sendKeys("demo");
        browser.findElement(By.id("password")).sendKeys("demo");
        int coverMark = stack.nginx.accessLog().size();
        browser.findElement(By.id("login-button")).click();

        // every book with its cover loaded, by signed links that nginx verified and served without Tomcat
        waitUpTo(20).until(d -> d.findElements(By.cssSelector("[data-testid=book]")).size()
                == DemoLibrary.BOOKS.size());
        boolean covers = waitUpTo(20).until(d -> (Boolean) js("const imgs = [...document.querySelectorAll("
                + "'[data-testid=cover]')];"
                + " return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);"));
        assertTrue(covers);
        List<?> widths = (List<?>) js(
                "return [...document.querySelectorAll('[data-testid=cover]')].map(i => i.naturalWidth);");
        assertEquals(DemoLibrary.BOOKS.size(), widths.size());
        for (Object w : widths) {
            assertEquals(600L, ((Number) w).longValue(), "cover width " + widths);
        }
        List<?> sources = (List<?>) js("return [...document.querySelectorAll('[data-testid=cover]')].map(i => i.src);");
        for (Object src : sources) {
            assertTrue(Pattern.matches(
                    Pattern.quote(stack.url("/s/library/")) + "[^?]+\\?md5=[A-Za-z0-9_-]{22}&expires=\\d+",
                    src.toString()), "not a signed link: " + src);
        }
        // every author's picture loaded too (Author/author.jpg, signed links as well)
        boolean pictures = waitUpTo(20).until(d -> (Boolean) js("const imgs = [...document.querySelectorAll("
                + "'[data-testid=author-picture]')]; return imgs.length > 0"
                + " && imgs.every(i => i.complete && i.naturalWidth > 0);"));
        assertTrue(pictures);
        List<?> pictureSources = (List<?>) js("return [...document.querySelectorAll('[data-testid=author-picture]')]"
                + ".map(i => [i.src, i.naturalWidth]);");
        assertEquals(DemoLibrary.BOOKS.size(), pictureSources.size());
        for (Object o : pictureSources) {
            List<?> srcAndWidth = (List<?>) o;
            assertTrue(Pattern.matches(Pattern.quote(stack.url("/s/library/"))
                    + "[^/?]+/author\\.jpg\\?md5=[A-Za-z0-9_-]{22}&expires=\\d+", srcAndWidth.get(0).toString()),
                    "not a signed link to an author's picture: " + srcAndWidth);
            assertTrue(((Number) srcAndWidth.get(1)).longValue() > 0, srcAndWidth.toString());
        }
        List<String> lines = stack.nginx.accessLog();
        List<String> coverLines = lines.subList(Math.min(coverMark, lines.size()), lines.size()).stream()
                .filter(l -> l.contains("uri=\"/s/library/")).toList();
        assertTrue(coverLines.size() >= 2 * DemoLibrary.BOOKS.size(), String.join("\n", lines));
        for (String line : coverLines) {
            assertTrue(line.contains("\" 200 ") && line.contains(" ustatus=- "), "a cover reached Tomcat: " + line);
        }

        // open Jules Verne's book and play its first chapter (non-ASCII names end to end)
        DemoLibrary.Book verne = DemoLibrary.BOOKS.stream().filter(b -> b.author().equals("Jules Verne"))
                .findFirst().orElseThrow();
        WebElement book = browser.findElements(By.cssSelector("[data-testid=book]")).stream()
                .filter(e -> e.getText().contains(verne.title())).findFirst().orElseThrow();
        book.click();
        waitUpTo(10).until(d -> d.findElement(By.id("detail-title")).getText().equals(verne.title()));

        // the podcast feed: "Copy feed URL" shows (and copies) the feed URL with the user's feed token, which a
        // client without cookies can fetch; "Revoke" makes that URL fail on its next fetch
        browser.findElement(By.cssSelector("[data-testid=copy-feed]")).click();
        WebElement feedUrl = browser.findElement(By.cssSelector("[data-testid=feed-url]"));
        waitUpTo(10).until(d -> feedUrl.isDisplayed() && !feedUrl.getDomProperty("value").isEmpty());
        String url = feedUrl.getDomProperty("value");
        String id = Library.id(verne.author() + "/" + verne.title());
        assertTrue(Pattern.matches(Pattern.quote(stack.url("/feeds/" + id + ".xml?token=")) + "[A-Za-z0-9_-]{43}",
                url), url);
        Http http = new Http();
        java.net.http.HttpResponse<byte[]> feed = http.get(url);
        assertEquals(200, feed.statusCode(), url);
        assertEquals(verne.title(), FeedXml.text(FeedXml.channel(FeedXml.parse(feed.body())), "title"));
        browser.findElement(By.cssSelector("[data-testid=revoke-feed-token]")).click();
        waitUpTo(10).until(d -> d.findElement(By.cssSelector("[data-testid=feed-status]")).getText()
                .contains("revoked"));
        assertEquals(401, http.get(url).statusCode(), "a revoked feed token");
        WebElement chapter = browser.findElements(By.cssSelector("[data-testid=chapter]")).get(0);
        String chapterName = verne.chapters().get(0).fileName();
        assertTrue(chapter.getText().contains(chapterName), chapter.getText());
        int logMark = stack.nginx.accessLog().size();
        chapter.findElement(By.cssSelector("[data-testid=play]")).click();

        boolean playing = waitUpTo(30).until(d -> (Boolean) js("const a = document.getElementById('audio');"
                + " return a.readyState >= 2 && a.duration > 100 && !a.paused && a.currentTime > 0.2;"));
        assertTrue(playing);
        double duration = ((Number) js("return document.getElementById('audio').duration;")).doubleValue();
        assertEquals(verne.chapters().get(0).seconds(), duration, 1.0, "duration of " + chapterName);

        // seek to the middle: the browser asks for a new byte range
        js("const a = document.getElementById('audio'); a.currentTime = a.duration / 2;");
        boolean seeked = waitUpTo(30).until(d -> (Boolean) js("const a = document.getElementById('audio');"
                + " return !a.seeking && a.readyState >= 3 && a.currentTime > a.duration / 2 && !a.paused;"));
        assertTrue(seeked);
        double position = ((Number) js("return document.getElementById('audio').currentTime;")).doubleValue();
        assertTrue(position > duration / 2 && position < duration / 2 + 10, "position " + position);

        Path screenshot = ItSupport.property("xaccel.it.work").getParent().resolve("sample-screenshot.png");
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot, StandardCopyOption.REPLACE_EXISTING);
        if (Boolean.getBoolean("xaccel.updateScreenshot")) {
            Path docs = ItSupport.property("xaccel.it.docsDir");
            Files.createDirectories(docs);
            Files.copy(screenshot, docs.resolve("sample-screenshot.png"), StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(docs.resolve("sample-screenshot.png"),
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }

        // stop loading, so that nginx finishes (and logs) the open range requests
        js("const a = document.getElementById('audio'); a.pause(); a.removeAttribute('src'); a.load();");
        long size = Files.size(verne.dir(stack.library).resolve(chapterName));
        long middle = 44 + (size - 44) / 2;
        // nginx logs $uri decoded, with bytes above 0x7F as \xHH
        String loggedUri = "/_xaccel/library/Jules Verne/Vingt mille lieues sous les mers/"
                + escapeLikeNginx(chapterName);
        Pattern range = Pattern.compile(" 206 \\d+ uri=\"" + Pattern.quote(loggedUri)
                + "\" ustatus=200 ulen=0 range=\"bytes=(\\d+)-(\\d*)\"");
        boolean found = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(100),
                () -> seekLine(logMark, range, middle, size) != null);
        lines = stack.nginx.accessLog();
        assertTrue(found, "no 206 from the internal location for a range starting near byte " + middle
                + " of " + size + " in nginx's access log:\n"
                + String.join("\n", lines.subList(Math.min(logMark, lines.size()), lines.size())));

        // the admin's Deliveries table: the chapter's range requests, receipted by nginx (complete or aborted)
        // each refresh renders the rows anew: a row read while that happens is stale, so the wait reads again
        boolean tallied = waitUpTo(30).ignoring(StaleElementReferenceException.class).until(d -> {
            js("document.getElementById('refresh-stats').click();");   // the player bar may cover the button
            return d.findElements(By.cssSelector("#stats-chapters tr")).stream().map(WebElement::getText)
                    .anyMatch(t -> t.contains(verne.title()) && t.contains(chapterName))
                    && d.findElement(By.id("stats-users")).getText().contains("demo");
        });
        assertTrue(tallied, "the chapter and the user in the Deliveries tables");
    }

    /**
     * Signed links nginx serves alone, receipted by its {@code xs1} lines: an enclosure of a podcast feed and a cover,
     * each fetched once through nginx by a plain HTTP client, show in the browser's Deliveries tables one fetch more
     * than before, on the row of that episode and of that book.
     */
    @Test
    @Order(2)
    void enclosureAndCoverFetchesShowInTheDeliveriesTables() throws Exception {
        logInIfAsked();
        waitUpTo(20).until(d -> d.findElements(By.cssSelector("[data-testid=book]")).size()
                == DemoLibrary.BOOKS.size());
        waitUpTo(20).until(d -> (Boolean) js("const imgs = [...document.querySelectorAll("
                + "'[data-testid=cover]')]; return imgs.length > 0 && imgs.every(i => i.complete);"));
        String admin = stack.bearer("demo", "demo");
        Http http = new Http();
        // the browser's own cover fetches are receipted asynchronously: wait until every one nginx served counted
        AtomicReference<JsonObject> settled = new AtomicReference<>();
        boolean quiet = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(200), () -> {
            JsonObject d = deliveries(http, admin);
            settled.set(d);
            return d.getJsonNumber("coverFetches").longValue() == servedCoverLines();
        });
        assertTrue(quiet, "cover fetches " + settled.get() + " vs nginx's " + servedCoverLines() + " served");

        DemoLibrary.Book book = DemoLibrary.BOOKS.get(DemoLibrary.BOOKS.size() - 1);
        String id = Library.id(book.author() + "/" + book.title());
        JsonObject item = Http.array(http.get(stack.url("/api/items"), "Authorization", admin))
                .getValuesAs(JsonObject.class).stream().filter(i -> id.equals(i.getString("id"))).findFirst()
                .orElseThrow();
        String cover = item.getString("cover");
        String coverFile = book.coverFile();
        String episode = item.getJsonArray("files").getJsonObject(0).getString("name");
        long coversBefore = count(settled.get(), "covers", "book", id, coverFile);
        long episodesBefore = count(settled.get(), "enclosures", "book", id, episode);

        // a feed token, the feed, and its first enclosure: fetched like a podcast app, no cookie, through nginx
        HttpResponse<byte[]> t = http.post(stack.url("/api/feed-token"), "", "Authorization", admin);
        assertEquals(200, t.statusCode(), Http.text(t));
        HttpResponse<byte[]> feed = http.get(stack.url("/feeds/" + id + ".xml?token="
                + Http.object(t).getString("token")));
        assertEquals(200, feed.statusCode(), Http.text(feed));
        String enclosure = FeedXml.child(FeedXml.children(FeedXml.channel(FeedXml.parse(feed.body())), null, "item")
                .get(0), null, "enclosure").getAttribute("url");
        HttpResponse<byte[]> audio = http.get(enclosure);
        assertEquals(200, audio.statusCode(), enclosure);
        assertEquals(item.getJsonArray("files").getJsonObject(0).getJsonNumber("size").longValue(),
                audio.body().length);
        // the book's signed cover link, as the list page has it
        String coverUrl = java.net.URI.create(stack.url("/")).resolve(cover).toString();
        assertTrue(coverUrl.startsWith(stack.url("/s/library/")), coverUrl);
        HttpResponse<byte[]> image = http.get(coverUrl);
        assertEquals(200, image.statusCode(), cover);

        String episodeRow = rowText(book.title(), episode, episodesBefore + 1);
        String coverRow = rowText(book.title(), coverFile, coversBefore + 1);
        boolean shown = waitUpTo(30).ignoring(StaleElementReferenceException.class).until(d -> {
            js("document.getElementById('refresh-stats').click();");   // the player bar may cover the button
            return d.findElements(By.cssSelector("#stats-enclosures tr")).stream().map(WebElement::getText)
                    .anyMatch(episodeRow::equals)
                    && d.findElements(By.cssSelector("#stats-covers tr")).stream().map(WebElement::getText)
                    .anyMatch(coverRow::equals);
        });
        assertTrue(shown, "rows [" + episodeRow + "] and [" + coverRow + "] in:\n"
                + browser.findElement(By.id("stats")).getText());
    }

    /** A row of the Deliveries tables as the browser renders its text: name, file, completed, aborted 0. */
    private static String rowText(String title, String file, long completed) {
        return title + " " + file + " " + completed + " 0";
    }

    /** Opens the page; logs in as the admin unless the session of an earlier test is still on. */
    private void logInIfAsked() {
        browser.get(stack.url("/"));
        waitUpTo(20).until(d -> d.findElement(By.id("login-form")).isDisplayed()
                || !d.findElements(By.cssSelector("[data-testid=book]")).isEmpty());
        if (browser.findElement(By.id("login-form")).isDisplayed()) {
            browser.findElement(By.id("user")).sendKeys("demo");
            browser.findElement(By.id("password")).sendKeys("demo");
            browser.findElement(By.id("login-button")).click();
        }
    }

    /** Cover and author-picture fetches nginx answered 200 or 206 (each sends an xs1 line), from its access log. */
    private static long servedCoverLines() {
        return stack.nginx.accessLog().stream().filter(l -> l.contains(" uri=\"/s/library/")
                && (l.contains("\" 200 ") || l.contains("\" 206 "))).count();
    }

    private static JsonObject deliveries(Http http, String admin) {
        try {
            HttpResponse<byte[]> s = http.get(stack.url("/api/stats"), "Authorization", admin);
            assertEquals(200, s.statusCode(), Http.text(s));
            return Http.object(s).getJsonObject("deliveries");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The completed count of one row of deliveries' {@code list} (0 when there is none yet). */
    private static long count(JsonObject deliveries, String list, String key, String value, String file) {
        return deliveries.getJsonArray(list).getValuesAs(JsonObject.class).stream()
                .filter(o -> value.equals(o.getString(key, null)) && file.equals(o.getString("file")))
                .mapToLong(o -> o.getJsonNumber("complete").longValue()).sum();
    }

    /** The access-log line of the seek: a 206 for the chapter whose range starts near the middle. */
    private String seekLine(int logMark, Pattern range, long middle, long size) {
        List<String> lines = stack.nginx.accessLog();
        for (String line : lines.subList(Math.min(logMark, lines.size()), lines.size())) {
            Matcher m = range.matcher(line);
            if (m.find()) {
                long start = Long.parseLong(m.group(1));
                if (Math.abs(start - middle) < size / 10) {
                    return line;
                }
            }
        }
        return null;
    }

    static String escapeLikeNginx(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                sb.append(String.format("\\x%02X", c));
            } else {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }
}
