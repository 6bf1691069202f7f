package dev.xaccel.sample.api;

import java.util.List;

/** The JSON shapes of the API (serialised by JSON-B). */
public final class Json {

    private Json() {
    }

    /**
     * One book in {@code GET /api/items}.
     *
     * @param cover         the cover's URL (a signed link behind nginx), or null
     * @param authorPicture the URL of the author's picture (a signed link behind nginx), or null
     * @param feed          the book's podcast feed, {@code /feeds/<id>.xml}, to which the client appends
     *                      {@code ?token=<its feed token>}; null when feeds are not available to this request
     */
    public record Item(String id, String title, String author, String cover, String authorPicture, String feed,
                       long totalBytes, List<File> files) {
    }

    /**
     * One audio file of a book.
     *
     * @param url      served through Jersey + {@code XAccelFeature} (declared mode)
     * @param download the same with {@code Content-Disposition: attachment} and the original name
     * @param library  the same file through the filter's mapped mode, {@code /library/<relative path>}
     */
    public record File(int index, String name, long size, String contentType, String url, String download,
                       String library) {
    }

    /** Answer of {@code POST /api/login} and {@code GET /api/me}. */
    public record Login(String user, boolean admin, String token, long expiresInSeconds) {
    }

    /** Answer of {@code GET} and {@code POST /api/feed-token}: the token podcast feed URLs carry. */
    public record FeedToken(String token) {
    }

    /** An error body. */
    public record Error(String error, String message) {
    }
}
