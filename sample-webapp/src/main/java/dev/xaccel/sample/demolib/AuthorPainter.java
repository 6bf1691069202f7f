package dev.xaccel.sample.demolib;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.util.Locale;

/** Draws an author's picture with Java2D (headless): a head-and-shoulders silhouette and the initials. */
final class AuthorPainter {

    static final int SIZE = 320;

    private AuthorPainter() {
    }

    /** An RGB image (JPEG has no alpha channel). */
    static BufferedImage paint(String author, float hue) {
        BufferedImage img = new BufferedImage(SIZE, SIZE, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            g.setPaint(new GradientPaint(0, 0, Color.getHSBColor(hue, 0.35f, 0.85f),
                    SIZE, SIZE, Color.getHSBColor((hue + 0.1f) % 1f, 0.6f, 0.45f)));
            g.fillRect(0, 0, SIZE, SIZE);

            g.setColor(new Color(255, 255, 255, 70));
            g.fill(new Ellipse2D.Double(SIZE * 0.3, SIZE * 0.14, SIZE * 0.4, SIZE * 0.4));
            g.fill(new RoundRectangle2D.Double(SIZE * 0.14, SIZE * 0.6, SIZE * 0.72, SIZE * 0.6,
                    SIZE * 0.5, SIZE * 0.5));

            String initials = initials(author);
            g.setFont(new Font(Font.SERIF, Font.BOLD, SIZE / 4));
            FontMetrics fm = g.getFontMetrics();
            g.setColor(Color.WHITE);
            g.drawString(initials, (SIZE - fm.stringWidth(initials)) / 2, (int) (SIZE * 0.34) + fm.getAscent() / 3);
        } finally {
            g.dispose();
        }
        return img;
    }

    /** The first letter of (at most) the first two words, upper case. */
    static String initials(String author) {
        StringBuilder sb = new StringBuilder();
        for (String word : author.trim().split("\\s+")) {
            if (!word.isEmpty() && sb.length() < 2) {
                sb.appendCodePoint(word.codePointAt(0));
            }
        }
        return sb.toString().toUpperCase(Locale.ROOT);
    }
}
