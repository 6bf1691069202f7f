package dev.xaccel.bench.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.system.Processes;

/**
 * Downloads with curl to {@code /dev/null}, as the large-file workload measures them. Each download yields
 * {@code "<status> <bytes>"} (curl's {@code -w '%{http_code} %{size_download}'}), with {@code " curl-failed"}
 * appended when curl itself failed.
 */
public final class Curl {

    private final Processes processes;
    private final String token;

    public Curl(Processes processes, String token) {
        this.processes = processes;
        this.token = token;
    }

    public String download(String url) {
        Processes.Result r = processes.run(List.of("curl", "-s", "-o", "/dev/null", "-w",
                "%{http_code} %{size_download}", "-H", "Authorization: Bearer " + token, url));
        return r.output().trim() + (r.ok() ? "" : " curl-failed");
    }

    /** {@code count} downloads one after the other. */
    public List<String> sequential(String url, int count) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            l.add(download(url));
        }
        return l;
    }

    /** {@code downloaders} at once, each downloading {@code each} times one after the other. */
    public List<String> parallel(String url, int downloaders, int each) {
        ExecutorService pool = Executors.newFixedThreadPool(downloaders);
        try {
            List<Future<List<String>>> all = new ArrayList<>();
            for (int j = 0; j < downloaders; j++) {
                all.add(pool.submit(() -> sequential(url, each)));
            }
            List<String> l = new ArrayList<>();
            for (Future<List<String>> f : all) {
                l.addAll(f.get());
            }
            return l;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted during parallel downloads");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re
                    : new BenchFailure("parallel download failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
