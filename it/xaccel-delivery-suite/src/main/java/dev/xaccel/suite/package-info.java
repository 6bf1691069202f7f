/**
 * The filter's end-to-end delivery suite, as main code so that every container and front-end module runs the same
 * tests: JUnit 5 classes and their fixtures. This is the suite's API.
 *
 * <h2>The two interfaces (in xaccel-test-support)</h2>
 * <ul>
 * <li>{@link dev.xaccel.testsupport.servlet.ServletContainer}: {@code int start(WebApp)} deploys a
 * {@link dev.xaccel.testsupport.servlet.WebApp} as its web.xml would (the XAccelFilter by class name with string
 * init-params) on 127.0.0.1 and returns the port; {@code close()} stops it. Its
 * {@link dev.xaccel.testsupport.servlet.ServletContainer.Factory} gives the name, the lenient mode and the body
 * writer the filter is expected to pick there, and what the container answers itself before any filter runs: the
 * awkward names it refuses ({@code passesName}) and the status per traversal target ({@code ownStatus}).</li>
 * <li>{@link dev.xaccel.testsupport.frontend.FrontEnd}: started by its
 * {@link dev.xaccel.testsupport.frontend.FrontEnd.Factory} "with this backend port and media root", it gives its
 * port, its access log and, per request ({@code X-Request-Id}), a
 * {@link dev.xaccel.testsupport.frontend.FrontEnd.Delivery} saying whether it offloaded and whether the backend
 * sent a body. The factory also names the filter's init-params it needs ({@code locations}, {@code headerType}),
 * its offload header, its internal prefix (if any), whether it reuses upstream connections, which names its
 * offload header carries ({@code carries}: the filter serves the others itself), whether it confines again at open
 * time (if not, the symlink-swap race through it is measured, not required to be zero) and what it answers unlike
 * nginx (preconditions it ignores, a 416 without the length, targets with control characters refused).</li>
 * </ul>
 *
 * <h2>How a module runs the suite</h2>
 * <ol>
 * <li>Depend on {@code xaccel-delivery-suite} (test scope), the container, and the Servlet API the container
 * implements.</li>
 * <li>Register exactly one container factory in
 * {@code src/test/resources/META-INF/services/dev.xaccel.testsupport.servlet.ServletContainer$Factory}
 * ({@link dev.xaccel.suite.SuiteEnvironment#container()}).</li>
 * <li>Let failsafe scan the suite: {@code <dependenciesToScan>dev.xaccel:xaccel-delivery-suite</dependenciesToScan>};
 * every concrete {@code *IT} class here then runs once in that module.</li>
 * <li>The front end is the registered {@code FrontEnd$Factory} named by the system property
 * {@code xaccel.frontend} (default {@code nginx}; xaccel-test-support registers nginx, {@code apache},
 * {@code lighttpd} and {@code caddy}): a module runs the suite once per front end (one failsafe execution each,
 * with {@code <systemPropertyVariables>}).</li>
 * </ol>
 * The container modules' parent, xaccel-it-parent ({@code it/pom.xml}), does the last two for them.
 *
 * <h2>The tests</h2>
 * <ul>
 * <li>{@link dev.xaccel.suite.OffloadedDeliveryIT}, {@link dev.xaccel.suite.DirectDeliveryIT}
 * ({@link dev.xaccel.suite.DeliverySuite}): byte-exact awkward names, single and multiple ranges, HEAD, 304/412,
 * Content-Type and Content-Disposition, 401 without authorization, a file renamed over sent in its new version at
 * once, through the front end.</li>
 * <li>{@link dev.xaccel.suite.TraversalIT}: the traversal corpus, through the front end and directly; a target the
 * container answers itself ({@code ownStatus}) gets exactly that status and never reaches the application.</li>
 * <li>{@link dev.xaccel.suite.SpoofedMarkerIT}: the marker from an untrusted address is never trusted.</li>
 * <li>{@link dev.xaccel.suite.SymlinkSwapIT}: a directory swapped for a link to outside while it is requested:
 * zero bytes from outside, directly and through the front end.</li>
 * <li>{@link dev.xaccel.suite.ZeroCopyIT}: the body writer the filter picks in the container (its FINE line), the
 * bytes exact.</li>
 * <li>{@link dev.xaccel.suite.StaleHeadersIT}: headers set before the declaration are removed (Servlet 6.0 too);
 * the container runs the Servlet version its factory names.</li>
 * <li>{@link dev.xaccel.suite.ReceiptsIT}: delivery receipts to the listener web.xml names ({@link
 * dev.xaccel.suite.ReceiptLog}, read back through {@link dev.xaccel.suite.ReceiptLogServlet}), through nginx's
 * receipt log and served by the filter, a client that leaves mid-file included;
 * {@link dev.xaccel.suite.TomcatSendfileReceiptsSuite} (the Tomcat modules subclass it) with {@code sendfile=true}.
 * </li>
 * <li>{@link dev.xaccel.suite.TomcatSendfileSuite} (not an {@code *IT}: the Tomcat modules subclass it):
 * {@code sendfile=true}, Tomcat's sendfile by name for large single ranges.</li>
 * <li>{@link dev.xaccel.suite.JaxRsSuite} (not an {@code *IT}: a module with Jersey 4 subclasses it):
 * {@code XAccelFeature} with a resource returning {@code Path} and {@code XAccelFile}.</li>
 * <li>{@link dev.xaccel.suite.FilterInWarIT} (servers that deploy a real WAR in the tests' JVM: GlassFish,
 * Payara): the application loads the filter from its {@code WEB-INF/lib}, not the tests' class path.</li>
 * </ul>
 * Subclasses may change what a class runs through (protected methods), e.g. SymlinkSwapIT through another
 * nginx template. Fixtures: {@link dev.xaccel.suite.DeliveryStack} (media, container, front end),
 * {@link dev.xaccel.suite.DeclaredFileServlet}, and xaccel-test-support's {@code MediaFixture},
 * {@code BearerAuthFilter}, {@code SuiteApp}.
 */
package dev.xaccel.suite;
