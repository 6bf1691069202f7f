package dev.xaccel.filter;

/**
 * What application code declares as the answer to a request: a local file ({@link XAccelFile}) or an object in a
 * remote store ({@link XAccelRemote}). Declared mode keeps one per request ({@code DeclaredState}) and
 * the filter delivers it by its kind. A marker: each kind is its own immutable value.
 */
public interface Declaration {
}
