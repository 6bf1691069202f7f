/**
 * Assertions for an application's own tests of its downloads, without a front end: was the answer offloaded
 * ({@code X-Accel-Redirect}, {@code X-Sendfile}) and to what, or served directly; AssertJ
 * ({@link dev.xaccel.test.XAccelAssertions}) and Spring MVC ({@link dev.xaccel.test.XAccelResultMatchers}).
 */
package dev.xaccel.test;
