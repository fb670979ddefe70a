package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An info object: an ordered set of (key, value) hints. Rewind keeps them but acts on none. */
public final class Info implements Freeable, Cloneable {
    private Map<String, String> entries;

    public Info() throws MPIException {
        entries = new LinkedHashMap<>();
    }

    Info(Map<String, String> entries) {
        this.entries = entries;
    }

    private Map<String, String> map() throws MPIException {
        if (entries == null) {
            throw Failures.error(MPI.ERR_INFO, "the info object is null or was freed");
        }
        return entries;
    }

    public void set(String key, String value) throws MPIException {
        MPI.check();
        map().put(key, value);
    }

    public String get(String key) throws MPIException {
        MPI.check();
        return map().get(key);
    }

    public void delete(String key) throws MPIException {
        MPI.check();
        if (map().remove(key) == null) {
            throw Failures.error(MPI.ERR_INFO_NOKEY, "no info key " + key);
        }
    }

    public int size() throws MPIException {
        MPI.check();
        return map().size();
    }

    public String getKey(int i) throws MPIException {
        MPI.check();
        List<String> keys = new ArrayList<>(map().keySet());
        if (i < 0 || i >= keys.size()) {
            throw Failures.error(MPI.ERR_ARG, "info key index " + i + " out of range");
        }
        return keys.get(i);
    }

    @Override
    public Info clone() {
        return new Info(entries == null ? null : new LinkedHashMap<>(entries));
    }

    public Info dup() throws MPIException {
        MPI.check();
        return new Info(new LinkedHashMap<>(map()));
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        entries = null;
    }

    public boolean isNull() {
        return entries == null;
    }
}
