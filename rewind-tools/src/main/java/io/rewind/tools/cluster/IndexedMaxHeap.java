package io.rewind.tools.cluster;

import java.util.Arrays;

/**
 * Binary max-heap of vertex ids keyed by a long gain, with O(log n) update and removal by id.
 * Gains are byte counts, far too spread for the bucket arrays of textbook FM.
 */
final class IndexedMaxHeap {

    private final int[] heap;
    private final int[] position;
    private final long[] key;
    private int size;

    IndexedMaxHeap(int capacity) {
        heap = new int[capacity];
        position = new int[capacity];
        key = new long[capacity];
        Arrays.fill(position, -1);
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean contains(int v) {
        return position[v] >= 0;
    }

    int top() {
        return heap[0];
    }

    long topKey() {
        return key[heap[0]];
    }

    void clear() {
        for (int i = 0; i < size; i++) {
            position[heap[i]] = -1;
        }
        size = 0;
    }

    void insert(int v, long k) {
        key[v] = k;
        heap[size] = v;
        position[v] = size;
        size++;
        siftUp(size - 1);
    }

    void update(int v, long k) {
        long old = key[v];
        key[v] = k;
        if (k > old) {
            siftUp(position[v]);
        } else {
            siftDown(position[v]);
        }
    }

    void remove(int v) {
        int i = position[v];
        size--;
        position[v] = -1;
        if (i == size) {
            return;
        }
        int last = heap[size];
        heap[i] = last;
        position[last] = i;
        siftUp(i);
        siftDown(position[last]);
    }

    private void siftUp(int i) {
        int v = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (key[p] >= key[v]) {
                break;
            }
            heap[i] = p;
            position[p] = i;
            i = parent;
        }
        heap[i] = v;
        position[v] = i;
    }

    private void siftDown(int i) {
        int v = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && key[heap[child + 1]] > key[heap[child]]) {
                child++;
            }
            int c = heap[child];
            if (key[c] <= key[v]) {
                break;
            }
            heap[i] = c;
            position[c] = i;
            i = child;
        }
        heap[i] = v;
        position[v] = i;
    }
}
