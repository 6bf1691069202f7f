package dev.xaccel.filter;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * A public method of a container's own output stream class, looked up by reflection once per class: the filter
 * has no container classes at compile time, and the class of the object the container hands out is what counts
 * (a class loader that hides the container's packages from the application does not matter, nor does a wrapper's
 * stream: its class has another name).
 */
final class StreamMethod {

    private final ClassValue<Method> methods;

    /** The method {@code name(parameter)} of classes whose name starts with {@code classPrefix}. */
    StreamMethod(String classPrefix, String name, Class<?> parameter) {
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

    /** The method of {@code stream}'s class, or {@code null}. */
    Method find(Object stream) {
        return methods.get(stream.getClass());
    }

    /** Calls {@code method} on {@code stream}; what it throws comes out as it is (or in an IOException). */
    static void invoke(Method method, Object stream, Object argument) throws IOException {
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
