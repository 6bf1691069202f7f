package dev.xaccel.sample.demolib;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;

/** Draws a book cover with Java2D (headless): a gradient, sound-wave rings, title and author. */
final class CoverPainter {

    static final int SIZE = 600;

    private CoverPainter() {
    }

    static BufferedImage paint(String author, String title, float hue, long seed) {
        BufferedImage img = new BufferedImage(SIZE, SIZE, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            Color top = Color.getHSBColor(hue, 0.55f, 0.55f);
            Color bottom = Color.getHSBColor((hue + 0.08f) % 1f, 0.75f, 0.18f);
            g.setPaint(new GradientPaint(0, 0, top, 0, SIZE, bottom));
            g.fillRect(0, 0, SIZE, SIZE);

            Random r = new Random(seed);
            g.setStroke(new BasicStroke(2.2f));
            double cx = SIZE * (0.25 + 0.5 * r.nextDouble());
            double cy = SIZE * 0.62;
            for (int i = 1; i <= 14; i++) {
                double radius = 22.0 * i + r.nextInt(8);
                g.setColor(new Color(255, 255, 255, Math.max(10, 90 - 6 * i)));
                g.draw(new Ellipse2D.Double(cx - radius, cy - radius, 2 * radius, 2 * radius));
            }
            g.setColor(new Color(255, 255, 255, 200));
            g.fillRect(48, 62, 64, 6);

            Font titleFont = new Font(Font.SERIF, Font.BOLD, 50);
            g.setFont(titleFont);
            g.setColor(Color.WHITE);
            int y = 140;
            for (String line : wrap(title, g.getFontMetrics(), SIZE - 96)) {
                g.drawString(line, 48, y);
                y += g.getFontMetrics().getHeight();
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 28));
            g.setColor(new Color(255, 255, 255, 220));
            g.drawString(author.toUpperCase(java.util.Locale.ROOT), 48, SIZE - 56);
        } finally {
            g.dispose();
        }
        return img;
    }

    static void write(BufferedImage img, String format, OutputStream out) throws IOException {
        if (!ImageIO.write(img, format, out)) {
            throw new IOException("no ImageIO writer for " + format);
        }
    }

    private static List<String> wrap(String text, FontMetrics fm, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            String candidate = line.length() == 0 ? word : line + " " + word;
            if (fm.stringWidth(candidate) > width && line.length() > 0) {
                lines.add(line.toString());
                line = new StringBuilder(word);
            } else {
                line = new StringBuilder(candidate);
            }
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }
}
