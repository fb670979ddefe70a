package io.rewind.api.jar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build step that makes the jar's classes (src/build/java/SignatureJar.java) refuses a public
 * signature of {@code mpi} that names a type a Java 17 program cannot have: here one of the runtime's
 * own packages, and a package-private class of {@code mpi}.
 */
class SignatureJarChecksTest {
    @TempDir
    Path work;

    private void write(String path, String source) throws IOException {
        Path f = work.resolve("src").resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, source);
    }

    @Test
    void aSignatureNamingATypeOutsideTheApiFailsTheBuildStep() throws Exception {
        write("io/rewind/engine/Engine.java", "package io.rewind.engine; public class Engine {}");
        write("mpi/Hidden.java", "package mpi; class Hidden {}");
        write(
                "mpi/MPI.java",
                "package mpi; public final class MPI {"
                        + " public static io.rewind.engine.Engine engine() { return null; }"
                        + " public static void take(Hidden h) {}"
                        + " static io.rewind.engine.Engine notKept() { return null; }"
                        + " public static void fine(java.util.List<String> l) {} }");
        Path classes = Files.createDirectories(work.resolve("classes"));
        int javac = ToolProvider.getSystemJavaCompiler()
                .run(
                        null,
                        null,
                        null,
                        "-d",
                        classes.toString(),
                        work.resolve("src/io/rewind/engine/Engine.java").toString(),
                        work.resolve("src/mpi/Hidden.java").toString(),
                        work.resolve("src/mpi/MPI.java").toString());
        assertEquals(0, javac);

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        Path.of("target/signature-jar/asm.jar").toString(),
                        Path.of("src/build/java/SignatureJar.java").toString(),
                        "--mpi",
                        classes.toString(),
                        "--api",
                        ApiJarClassesTest.classes().toString(),
                        "--out",
                        work.resolve("out").toString())
                .redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the build step did not end");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.exitValue(), output);
        List<String> lines = output.lines().toList();
        assertEquals(
                List.of(
                        "rewind-api: mpi.MPI names io.rewind.engine.Engine, which is neither in the Java 17 API nor a"
                                + " public class of mpi or io.rewind.api",
                        "rewind-api: mpi.MPI names mpi.Hidden, which is neither in the Java 17 API nor a public class"
                                + " of mpi or io.rewind.api"),
                lines);
        assertTrue(Files.notExists(work.resolve("out")), "nothing is written when a signature is refused");
    }
}
