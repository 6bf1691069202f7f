package dev.xaccel.suite;

import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.servlet.ServletContainer;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Where a run of the suite gets its container and its front end: the one {@link ServletContainer.Factory} on the
 * class path (or the factory class the system property {@value #CONTAINER} names: a module that runs the suite a
 * second time with another variant of its container), and the {@link FrontEnd.Factory} that the system property
 * {@value FrontEnd#PROPERTY} names.
 */
public final class SuiteEnvironment {

    /** System property: the class name of the container factory, instead of the one registered. */
    public static final String CONTAINER = "xaccel.container";

    private SuiteEnvironment() {
    }

    /** The container of this run: {@value #CONTAINER}'s, else the one factory registered (fails unless one). */
    public static ServletContainer.Factory container() {
        String named = System.getProperty(CONTAINER);
        if (named != null) {
            try {
                return Class.forName(named).asSubclass(ServletContainer.Factory.class).getConstructor().newInstance();
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new IllegalStateException(CONTAINER + "=" + named + " is not a ServletContainer$Factory", e);
            }
        }
        List<ServletContainer.Factory> all = ServiceLoader.load(ServletContainer.Factory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        if (all.size() != 1) {
            throw new IllegalStateException("the delivery suite needs exactly one ServletContainer$Factory in "
                    + "META-INF/services of the module that runs it, found " + names(all));
        }
        return all.get(0);
    }

    /** The front end of this run, by {@value FrontEnd#PROPERTY} (default {@value FrontEnd#DEFAULT}). */
    public static FrontEnd.Factory frontEnd() {
        return frontEnd(System.getProperty(FrontEnd.PROPERTY, FrontEnd.DEFAULT));
    }

    /** The registered front end of that name. */
    public static FrontEnd.Factory frontEnd(String wanted) {
        List<FrontEnd.Factory> all = ServiceLoader.load(FrontEnd.Factory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        return all.stream().filter(f -> f.name().equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no front end '" + wanted + "' (" + FrontEnd.PROPERTY
                        + "); registered: " + all.stream().map(FrontEnd.Factory::name).toList()));
    }

    private static String names(List<ServletContainer.Factory> all) {
        return all.stream().map(f -> f.getClass().getName()).collect(Collectors.joining(", ", "[", "]"));
    }
}
