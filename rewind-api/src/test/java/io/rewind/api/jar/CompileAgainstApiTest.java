package io.rewind.api.jar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program compiled against the rewind-api jar alone, with the javac of the JDK that runs Maven and
 * {@code --release 17}: it compiles, and the same compile fails once one of the jar's classes is a
 * version-69 (Java 25) class file, as the runtime's own are, so the check is a real one on Java 17.
 */
class CompileAgainstApiTest {
    @TempDir
    Path work;

    /** Compiles the ring program against {@code classPath}; javac's messages, or null on success. */
    private String compile(Path classPath) throws IOException {
        Path source = work.resolve("src/Ring.java");
        Files.createDirectories(source.getParent());
        try (InputStream in = getClass().getResourceAsStream("/program/Ring.java")) {
            Files.write(source, in.readAllBytes());
        }
        Path out = Files.createDirectories(work.resolve("out"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter messages = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            boolean ok = javac.getTask(
                            messages,
                            files,
                            null,
                            List.of("--release", "17", "-classpath", classPath.toString(), "-d", out.toString()),
                            null,
                            files.getJavaFileObjects(source))
                    .call();
            return ok ? null : messages.toString();
        }
    }

    @Test
    void aProgramCompilesAgainstTheJarForJava17() throws Exception {
        assertEquals(null, compile(ApiJarClassesTest.classes()));
        assertEquals(61, ApiJarClassesTest.majorVersion(work.resolve("out/Ring.class")));
    }

    @Test
    void aVersion69ClassOnTheClassPathFailsTheCompileOnJava17() throws Exception {
        // The check means something only where javac is older than the runtime's class files (Maven on
        // JDK 17 or 21; on JDK 25 or newer this javac reads version 69 like any other).
        assumeTrue(
                Runtime.version().feature() < 25,
                "Maven runs on JDK " + Runtime.version().feature());
        Path copy = work.resolve("classes");
        Path root = ApiJarClassesTest.classes();
        for (Path f : ApiJarClassesTest.classFiles(root)) {
            Path to = copy.resolve(root.relativize(f).toString());
            Files.createDirectories(to.getParent());
            Files.copy(f, to);
        }
        Path comm = copy.resolve("mpi/Comm.class");
        byte[] bytes = Files.readAllBytes(comm);
        bytes[7] = 69;
        Files.write(comm, bytes);
        String messages = compile(copy);
        assertFalse(messages == null, "the compile should fail");
        assertTrue(messages.contains("wrong version 69.0"), messages);
    }
}
