package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The integer constants a program may print, store or compare with a literal have Open MPI's values
 * (its {@code mpi.h}, which its Java bindings read at start-up): a program then prints the same under
 * both.
 */
class ConstantValuesTest {
    @Test
    void ranksAndTags() {
        assertEquals(-1, MPI.ANY_SOURCE);
        assertEquals(-1, MPI.ANY_TAG);
        assertEquals(-2, MPI.PROC_NULL);
        assertEquals(-4, MPI.ROOT);
        assertEquals(-32766, MPI.UNDEFINED);
        assertEquals(-1, MPI.KEYVAL_INVALID);
        assertEquals(128, MPI.BSEND_OVERHEAD);
    }

    @Test
    void topologies() {
        assertEquals(1, MPI.CART);
        assertEquals(2, MPI.GRAPH);
        assertEquals(3, MPI.DIST_GRAPH);
    }

    @Test
    void comparisonsAndThreadLevels() {
        assertEquals(0, MPI.IDENT);
        assertEquals(1, MPI.CONGRUENT);
        assertEquals(2, MPI.SIMILAR);
        assertEquals(3, MPI.UNEQUAL);
        assertEquals(0, MPI.THREAD_SINGLE);
        assertEquals(1, MPI.THREAD_FUNNELED);
        assertEquals(2, MPI.THREAD_SERIALIZED);
        assertEquals(3, MPI.THREAD_MULTIPLE);
    }

    @Test
    void attributeKeys() {
        assertEquals(0, MPI.TAG_UB);
        assertEquals(1, MPI.HOST);
        assertEquals(2, MPI.IO);
        assertEquals(3, MPI.WTIME_IS_GLOBAL);
        assertEquals(4, MPI.APPNUM);
        assertEquals(5, MPI.LASTUSEDCODE);
        assertEquals(6, MPI.UNIVERSE_SIZE);
    }
}
