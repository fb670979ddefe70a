package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/api.md's table of Open MPI's Java API honest: every class and member of Open MPI's
 * bindings ({@code ompi-java-api.txt}, the contract) is looked up by reflection in Rewind's package
 * {@code mpi} and is the same (same parameter types, static-ness, return or field type, visibility and
 * checked exceptions), differs (how is generated), or is absent.
 *
 * <p>Why something differs or is absent is written by hand in {@code api-notes.txt}. The test fails if
 * a member that is absent or differs has no note, and if a note explains nothing any more (everything
 * it names is now the same, or it names nothing), so that the notes follow the code. It fails too if
 * docs/api.md does not hold exactly the table generated from both files between its markers; running
 * it with {@code -Drewind.api.write=true} rewrites that part of docs/api.md instead.
 *
 * <p>Public classes and members that Rewind has and Open MPI does not are listed under "Rewind only",
 * generated and without notes: they do not stop an Open MPI program from compiling, and the list shows
 * a reader which calls would tie a program to Rewind. A member Rewind declares on a superclass of the
 * class where Open MPI declares it is not listed there, since a program calls it the same way.
 */
class ApiTableTest {

    static final String BEGIN = "<!-- api-table:begin -->";
    static final String END = "<!-- api-table:end -->";
    static final String WRITE_PROPERTY = "rewind.api.write";
    static final String SOURCE = "Open MPI 4.1's Java bindings (`ompi-java-api.txt`)";

    private final ApiComparison comparison = new ApiComparison(MPI.class.getClassLoader());

    @Test
    void everyAbsentOrDifferingMemberHasANote() throws IOException {
        ApiNotes notes = notes();
        List<String> missing = new ArrayList<>();
        for (ApiComparison.Entry e : entries()) {
            if (e.status() != ApiComparison.Status.SAME && notes.noteFor(e).isEmpty()) {
                missing.add(e.status().word() + " " + e.reference().key()
                        + (e.how().isEmpty() ? "" : " (" + e.how() + ")"));
            }
        }
        assertTrue(
                missing.isEmpty(),
                "no note in api-notes.txt says why these are absent or differ:\n" + String.join("\n", missing));
    }

    @Test
    void everyNoteStillExplainsSomething() throws IOException {
        ApiNotes notes = notes();
        List<ApiComparison.Entry> entries = entries();
        List<String> stale = new ArrayList<>();
        for (ApiNotes.Note note : notes.all()) {
            boolean explains = entries.stream()
                    .anyMatch(e -> e.status() != ApiComparison.Status.SAME
                            && notes.noteFor(e).filter(n -> n == note).isPresent());
            if (!explains) {
                stale.add(note.key());
            }
        }
        assertTrue(
                stale.isEmpty(),
                "these notes in api-notes.txt name nothing that is absent or differs (now the same, or a typo):\n"
                        + String.join("\n", stale));
    }

    @Test
    void referenceLinesAreInTheirCanonicalForm() throws IOException {
        for (String line : referenceLines()) {
            assertEquals(line, ApiSignature.parse(line).line(), "not in the form ApiSignature writes");
        }
    }

    @Test
    void classifiesByPresenceStaticnessAndReturnType() {
        ApiComparison.Entry same =
                comparison.classify(ApiSignature.parse("public static double MPI#wtime() throws mpi.MPIException"));
        assertEquals(ApiComparison.Status.SAME, same.status());
        ApiComparison.Entry notStatic =
                comparison.classify(ApiSignature.parse("public int MPI#wtime() throws mpi.MPIException"));
        assertEquals(ApiComparison.Status.DIFFERS, notStatic.status());
        assertEquals("static (Open MPI: not static); returns `double` (Open MPI: `int`)", notStatic.how());
        ApiComparison.Entry absent = comparison.classify(ApiSignature.parse("public static double MPI#wtime(int)"));
        assertEquals(ApiComparison.Status.ABSENT, absent.status());
        ApiComparison.Entry inherited =
                comparison.classify(ApiSignature.parse("public int CartComm#getRank() throws mpi.MPIException"));
        assertEquals(ApiComparison.Status.SAME, inherited.status(), "declared by Comm, callable on CartComm");
    }

    @Test
    void docsHoldTheGeneratedTable() throws IOException, URISyntaxException, ClassNotFoundException {
        String table = BEGIN + "\n" + generatedTable() + END;
        Path docs = docsFile();
        String text = Files.readString(docs);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) {
            fail(docs + " lacks the markers " + BEGIN + " and " + END);
        }
        String current = text.substring(begin, end + END.length());
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.writeString(docs, text.substring(0, begin) + table + text.substring(end + END.length()));
            return;
        }
        if (!table.equals(current)) {
            fail("docs/api.md's API table is out of date (first difference: " + firstDifference(table, current)
                    + "): regenerate it with -D" + WRITE_PROPERTY + "=true (see docs/api.md)");
        }
    }

    /** The first line where the expected and actual tables part, so that a failure is readable. */
    private static String firstDifference(String expected, String actual) {
        List<String> want = expected.lines().toList();
        List<String> got = actual.lines().toList();
        for (int i = 0; i < Math.max(want.size(), got.size()); i++) {
            String w = i < want.size() ? want.get(i) : "(end)";
            String g = i < got.size() ? got.get(i) : "(end)";
            if (!w.equals(g)) {
                return "line " + (i + 1) + " of the table should be [" + w + "] but is [" + g + "]";
            }
        }
        return "line endings";
    }

    private String generatedTable() throws IOException, URISyntaxException, ClassNotFoundException {
        return ApiTable.render(SOURCE, entries(), notes(), rewindOnly());
    }

    /** Rewind's public classes and members that Open MPI lacks, by class, in display form. */
    private Map<String, List<String>> rewindOnly() throws IOException, URISyntaxException, ClassNotFoundException {
        List<ApiSignature> reference = reference();
        Path classes = Path.of(
                MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, List<String>> only = new LinkedHashMap<>();
        List<String> referenceClasses = reference.stream()
                .filter(ApiSignature::isClass)
                .map(ApiSignature::key)
                .toList();
        for (ApiSignature s : ApiListing.declared(MPI.class.getClassLoader(), ApiListing.classNames(classes))) {
            Class<?> owner = comparison.rewindClass(s.owner()).orElseThrow();
            boolean inOpenMpi =
                    s.isClass() ? referenceClasses.contains(s.key()) : comparison.isInReference(owner, s, reference);
            if (!inOpenMpi) {
                only.computeIfAbsent(s.owner(), k -> new ArrayList<>()).add(ApiTable.display(s));
            }
        }
        return only;
    }

    private List<ApiComparison.Entry> entries() throws IOException {
        return reference().stream().map(comparison::classify).toList();
    }

    private static List<ApiSignature> reference() throws IOException {
        return referenceLines().stream().map(ApiSignature::parse).toList();
    }

    private static List<String> referenceLines() throws IOException {
        return resourceLines("ompi-java-api.txt").stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .toList();
    }

    private static ApiNotes notes() throws IOException {
        return ApiNotes.parse(resourceLines("api-notes.txt"));
    }

    private static List<String> resourceLines(String name) throws IOException {
        try (InputStream in = ApiTableTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing test resource mpi/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** docs/api.md of the checkout: the tests run in the module's directory, so it is found upwards. */
    private static Path docsFile() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("docs").resolve("api.md");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IOException("docs/api.md not found above " + Path.of("").toAbsolutePath());
    }
}
