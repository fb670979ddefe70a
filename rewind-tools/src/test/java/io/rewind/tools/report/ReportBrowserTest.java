package io.rewind.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rewind.tools.cluster.ClusterRequest;
import io.rewind.tools.cluster.Clusterer;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.model.ModelParameters;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.SyntheticProfiles;
import io.rewind.tools.profile.Traffic;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders a full report in Debian's headless chromium and checks that the page's own script
 * found every plot laid out and recorded no script error. The network is closed, so the flags
 * switch off everything chromium would otherwise fetch.
 */
@Tag("browser")
class ReportBrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    static String sampleRunRecordJson() throws IOException {
        try (InputStream in = ReportBrowserTest.class.getResourceAsStream("/sample-run-record.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String sampleReport() throws IOException {
        CommProfile profile = SyntheticProfiles.stencil3d(4, 4, 4, 1 << 20, 2, 6.0, 30.0, 11);
        Clustering clusters = Clusterer.cluster(profile.p2p(), ClusterRequest.intoClusters(8));
        RunRecord run = RunRecordJson.parse(sampleRunRecordJson(), "sample-run-record.json");
        return HtmlReport.render(new ReportInput(
                "Rewind report: sample", profile, Traffic.P2P, clusters, run, ModelParameters.tableVi()));
    }

    @Test
    void pageIsSelfContainedWithAllPlots() throws IOException {
        String html = sampleReport();
        assertFalse(
                html.contains("http://")
                        && html.replace("http://www.w3.org/2000/svg", "").contains("http://"),
                "no external references");
        assertFalse(html.contains("https://"), "no external references");
        for (String id : List.of(
                "heatmap",
                "load",
                "lorenz",
                "clusters",
                "log-growth",
                "recovery",
                "cmp-overhead",
                "cmp-log",
                "cmp-recovery",
                "cmp-rollback",
                "model-time",
                "model-energy")) {
            assertTrue(html.contains("<figure class=\"plot\" id=\"" + id + "\">"), "missing plot " + id);
        }
        assertTrue(html.contains("receiver rank") && html.contains("sender rank"), "heatmap axes are labelled");
        assertTrue(html.contains("time since start of run (ms)"), "timeline axis has a unit");
    }

    @Test
    void rendersInHeadlessChromiumWithoutErrors(@TempDir Path dir) throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            fail(CHROMIUM + " is missing: run scripts/install-chromium.sh (as root) before the tests");
        }
        Path page = dir.resolve("report.html");
        Files.writeString(page, sampleReport());
        String dom = runChromium(dir, List.of("--dump-dom", page.toUri().toString()));
        assertTrue(dom.contains("data-render=\"ok\""), "page script did not confirm all plots:\n" + excerpt(dom));
        assertTrue(dom.contains("data-js-errors=\"0\""), "script errors recorded:\n" + excerpt(dom));
        assertTrue(dom.contains("data-plots-drawn=\"12\""), excerpt(dom));
        assertTrue(dom.contains("(rendered)</title>"), excerpt(dom));
    }

    /** Runs chromium headless with a fresh profile directory; returns its standard output. */
    static String runChromium(Path dir, List<String> extra) throws Exception {
        Path profile = Files.createTempDirectory(dir, "chromium-profile");
        List<String> command = new ArrayList<>(List.of(
                CHROMIUM.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile));
        command.addAll(extra);
        Path out = dir.resolve("chromium.out");
        Path err = dir.resolve("chromium.err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("chromium did not finish within 90 s; stderr:\n" + Files.readString(err));
        }
        assertEquals(0, process.exitValue(), "chromium failed; stderr:\n" + Files.readString(err));
        return Files.readString(out);
    }

    private static String excerpt(String dom) {
        int body = dom.indexOf("<body");
        return body < 0
                ? dom.substring(0, Math.min(600, dom.length()))
                : dom.substring(body, Math.min(dom.length(), body + 400))
                        + "\n... errors: "
                        + dom.substring(
                                Math.max(0, dom.indexOf("js-errors") - 10),
                                Math.min(dom.length(), dom.indexOf("js-errors") + 400));
    }
}
