package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class-data archive: one writer at a time, and an archive only from a writer that exited cleanly. */
class ClassDataArchiveTest {

    @Test
    void one_process_writes_and_its_file_becomes_the_archive_only_after_a_clean_exit(@TempDir Path dir)
            throws Exception {
        ClassDataArchive archive = ClassDataArchive.at(dir.resolve("a.jsa"));
        assertEquals(List.of(), archive.mapOptions(), "nothing to map before an archive is written");

        ClassDataArchive.Writer first = archive.claimWriter();
        assertNotNull(first);
        assertNull(archive.claimWriter(), "a second writer while the first one writes");

        // The first writer is killed: nothing becomes the archive, and another process may write.
        Files.writeString(temporaryOf(first), "half an archive");
        first.exited(137);
        assertFalse(Files.exists(dir.resolve("a.jsa")));
        assertEquals(List.of(), archive.mapOptions());
        assertEquals(List.of(), names(dir), "the partial file and the claim are gone");

        ClassDataArchive.Writer second = archive.claimWriter();
        assertNotNull(second);
        Files.writeString(temporaryOf(second), "a whole archive");
        second.exited(0);
        assertEquals("a whole archive", Files.readString(dir.resolve("a.jsa")));
        assertEquals(
                List.of(
                        "-XX:SharedArchiveFile=" + dir.resolve("a.jsa"),
                        "-Xlog:cds=off:stderr",
                        "-Xlog:cds+dynamic=off:stderr",
                        "-Xlog:aot=off:stderr"),
                archive.mapOptions());
        assertNull(archive.claimWriter(), "no writer once the archive is there");
        assertEquals(List.of("a.jsa"), names(dir));

        archive.distrust();
        assertFalse(Files.exists(dir.resolve("a.jsa")));
        assertNotNull(archive.claimWriter(), "a distrusted archive is written again");
    }

    @Test
    void an_archive_written_by_a_real_jvm_is_mapped_by_the_next_one(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("probe.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = ArchiveProbe.class.getResourceAsStream("ArchiveProbe.class")) {
            out.putNextEntry(new JarEntry("io/rewind/launch/ArchiveProbe.class"));
            in.transferTo(out);
        }
        ClassDataArchive archive = ClassDataArchive.at(dir.resolve("probe.jsa"));
        ClassDataArchive.Writer writer = archive.claimWriter();
        assertNotNull(writer);
        assertEquals(0, runProbe(jar, writer.options()));
        writer.exited(0);
        assertTrue(Files.size(dir.resolve("probe.jsa")) > 0);
        List<String> mapping = new ArrayList<>(archive.mapOptions());
        mapping.add("-Xshare:on"); // fails to start unless the archive maps
        assertEquals(0, runProbe(jar, mapping));
    }

    private static int runProbe(Path jar, List<String> options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JvmCommand.java()));
        cmd.addAll(options);
        cmd.addAll(List.of("-cp", jar.toString(), ArchiveProbe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        assertEquals("probe ran", output.strip(), output);
        return p.exitValue();
    }

    private static Path temporaryOf(ClassDataArchive.Writer writer) {
        String option = writer.options().get(0);
        assertTrue(option.startsWith("-XX:ArchiveClassesAtExit="), option);
        return Path.of(option.substring("-XX:ArchiveClassesAtExit=".length()));
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}
