package dev.xaccel.it.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

import dev.xaccel.testsupport.TestPaths;
import org.junit.jupiter.api.Test;

/** The files docs/deploy-your-war.md shows are the consumer project's, byte for byte; its nginx command is safe. */
class DeployYourWarDocTest {

    private static final Path ROOT = TestPaths.repositoryFile(DeployDoc.PATH).getParent().getParent();
    private static final Path PROJECT = ROOT.resolve("it/xaccel-it-consumer/src/it/consumer");

    @Test
    void thePomOnThePageIsTheProjectsPom() throws Exception {
        assertEquals(Files.readString(PROJECT.resolve("pom.xml"), StandardCharsets.UTF_8),
                DeployDoc.read(ROOT).block("DeployYourWarDocTest: pom.xml"));
    }

    @Test
    void theWebXmlOnThePageIsTheProjectsWebXml() throws Exception {
        assertEquals(Files.readString(PROJECT.resolve("src/main/webapp/WEB-INF/web.xml"), StandardCharsets.UTF_8),
                DeployDoc.read(ROOT).block("DeployYourWarDocTest: web.xml"));
    }

    @Test
    void envsubstIsToldTheTemplatesPlaceholdersOnly() throws Exception {
        // a plain envsubst would empty nginx's own $host, $uri, ... (nginx -t: invalid number of arguments)
        String nginx = DeployDoc.read(ROOT).block("ConsumerWarIT: nginx");
        assertTrue(nginx.contains("envsubst '${NGINX_PORT} ${TOMCAT_PORT} ${MEDIA_ROOT}' < xaccel.conf.template"),
                nginx);
        // outside its comment lines the template has exactly the three placeholders the command names
        List<String> config = Files.readAllLines(ROOT.resolve("docs/nginx/xaccel.conf.template"),
                StandardCharsets.UTF_8).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(List.of("${MEDIA_ROOT}", "${NGINX_PORT}", "${TOMCAT_PORT}"), config.stream()
                .flatMap(l -> Pattern.compile("\\$\\{[A-Z_]+}").matcher(l).results().map(MatchResult::group))
                .distinct().sorted().toList());
    }
}
