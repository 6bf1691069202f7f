/**
 * Spring MVC file answers handed to the {@code XAccelFilter}: controller return values
 * ({@link dev.xaccel.spring.boot.autoconfigure.mvc.FileReturnValueHandlerInstaller}) and, on request, static
 * resources ({@link dev.xaccel.spring.boot.autoconfigure.mvc.StaticResourceOffloader}).
 */
package dev.xaccel.spring.boot.autoconfigure.mvc;
