package dev.xaccel.filter.internal.config;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.internal.util.Messages;

/**
 * The {@link SignedLinks} a filter configures, published as context attribute {@link SignedLinks#CONTEXT_ATTRIBUTE}
 * for {@link XAccel#signedLinks}: at most one filter per context publishes them, the publication is the last step
 * of a successful {@code init} and is withdrawn by {@code destroy}.
 *
 * @param context the servlet context, may be {@code null} (nothing is published)
 * @param links   the filter's signer, may be {@code null} (nothing is published)
 */
public record SignedLinksPublication(ServletContext context, SignedLinks links) {

    private boolean applies() {
        return context != null && links != null;
    }

    /** Fails when another filter of this context already published signed links. */
    public void checkFree(String filterName) throws ServletException {
        if (applies() && context.getAttribute(SignedLinks.CONTEXT_ATTRIBUTE) != null) {
            throw new ServletException(Messages.get("filter.signedLinksTwice", filterName,
                    SignedLinks.CONTEXT_ATTRIBUTE));
        }
    }

    public void publish() {
        if (applies()) {
            context.setAttribute(SignedLinks.CONTEXT_ATTRIBUTE, links);
        }
    }

    /** Removes the attribute if it is still this filter's. */
    public void withdraw() {
        if (applies() && context.getAttribute(SignedLinks.CONTEXT_ATTRIBUTE) == links) {
            context.removeAttribute(SignedLinks.CONTEXT_ATTRIBUTE);
        }
    }
}
