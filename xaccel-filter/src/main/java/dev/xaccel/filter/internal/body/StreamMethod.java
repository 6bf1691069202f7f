package dev.xaccel.filter.internal.body;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.Function;

/**
 * A public method of a container's own output stream class, looked up by reflection once per class: the filter
 * has no container classes at compile time, and the class of the object the container hands out is what counts
 * (a class loader that hides the container's packages from the application does not matter, nor does a wrapper's
 * stream: its class has another name).
 */
public final class StreamMethod {

    private final ClassValue<Method> methods;

    /** The method {@code name(parameter)} of classes whose name starts with {@code classPrefix}. */
    public StreamMethod(String classPrefix, String name, Class<?> parameter) {
        this.methods = new ClassValue<>() {
            @Override
            protected Method computeValue(Class<?> type) {
                if (!type.getName().startsWith(classPrefix)) {
                    return null;
                }
                try {
                    return type.getMethod(name, parameter);
                } catch (NoSuchMethodException e) {
                    return null;
                }
            }
        };
    }

    /** {@code make} applied to the method of {@code stream}'s class bound to it; {@code null} when it has none. */
    public <T> T bind(OutputStream stream, Function<Bound, T> make) {
        Method m = methods.get(stream.getClass());
        return m == null ? null : make.apply(new Bound(stream, m));
    }

    /** The method and the stream it is called on. */
    public record Bound(OutputStream stream, Method method) {

        /** Calls the method; what it throws comes out as it is (or in an IOException). */
        public void call(Object argument) throws IOException {
            try {
                method.invoke(stream, argument);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) {
                    throw io;
                }
                if (cause instanceof RuntimeException re) {
                    throw re;
                }
                throw new IOException(cause);
            } catch (IllegalAccessException e) {
                throw new IOException(e);
            }
        }
    }
}
