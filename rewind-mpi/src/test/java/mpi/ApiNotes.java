package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hand-written reasons of {@code api-notes.txt}: why a member of Open MPI's API is absent from
 * Rewind or differs. A line is a key, then the reason; the key is a class ({@code Win}: the class, and
 * all its members while the class is absent; for a class that exists, its class line only), a member name ({@code Comm#allToAllw}: every overload; {@code Comm#<init>}: every
 * constructor) or one exact member ({@code Comm#send(java.lang.Object,int,mpi.Datatype,int,int)}). The
 * most specific note that names a member is its note. Lines starting with {@code "# "} and blank lines
 * are comments.
 */
final class ApiNotes {

    /** One note and the key it was written for. */
    record Note(String key, String reason) {}

    private final Map<String, Note> byKey;

    private ApiNotes(Map<String, Note> byKey) {
        this.byKey = byKey;
    }

    static ApiNotes parse(List<String> lines) {
        Map<String, Note> byKey = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("# ") || line.equals("#")) {
                continue;
            }
            int space = line.indexOf(' ');
            if (space < 0) {
                errors.add("a note needs a reason after its key: " + line);
                continue;
            }
            String key = line.substring(0, space);
            Note note = new Note(key, line.substring(space + 1).strip());
            if (byKey.putIfAbsent(key, note) != null) {
                errors.add("two notes for " + key);
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", errors));
        }
        return new ApiNotes(byKey);
    }

    /**
     * The note for a reference class or member: the exact one, else its name's, else, if Rewind lacks
     * the whole class, its class's.
     */
    Optional<Note> noteFor(ApiComparison.Entry e) {
        ApiSignature s = e.reference();
        if (s.isClass()) {
            return Optional.ofNullable(byKey.get(s.key()));
        }
        Note exact = byKey.get(s.key());
        if (exact != null) {
            return Optional.of(exact);
        }
        Note byName = byKey.get(s.owner() + "#" + s.memberName());
        if (byName != null) {
            return Optional.of(byName);
        }
        return e.classPresent() ? Optional.empty() : Optional.ofNullable(byKey.get(s.owner()));
    }

    List<Note> all() {
        return List.copyOf(byKey.values());
    }
}
