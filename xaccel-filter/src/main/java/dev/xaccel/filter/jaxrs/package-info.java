/**
 * JAX-RS integration: register {@link dev.xaccel.filter.jaxrs.XAccelFeature} and return a
 * {@link java.nio.file.Path}, {@link java.io.File} or {@link dev.xaccel.filter.XAccelFile} from a resource method;
 * the file is handed to the {@link dev.xaccel.filter.XAccelFilter} in front of the JAX-RS servlet, and JAX-RS
 * writes no byte of it.
 */
package dev.xaccel.filter.jaxrs;
