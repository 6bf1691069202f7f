package dev.xaccel.it.tomcat11;

import java.util.Map;

import dev.xaccel.suite.SymlinkSwapIT;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxFrontEnd;

/**
 * The swap race through nginx with the cached-decision template (docs/nginx/xaccel-cached-auth.conf.template,
 * decisions cached for 60 s by {@code expires=60}): a cached decision must not let a swapped-in link through
 * either. Once, here: it is about the template, not the container.
 */
class CachedTemplateSymlinkSwapIT extends SymlinkSwapIT {

    @Override
    protected FrontEnd.Factory frontEnd() {
        return new NginxFrontEnd.Factory("nginx-cached", DocsNginx.CACHED_TEMPLATE,
                Map.of("PUBLIC_PREFIX", "/library/"));
    }

    @Override
    protected String locationOptions() {
        return " expires=60";
    }

    @Override
    protected boolean viaContainer() {
        return false;
    }

    @Override
    protected String suite() {
        return "swap-cached";
    }
}
