/**
 * A template for new protocols: restart every rank from the beginning on any crash. Correct for every
 * program, and the shape every protocol package takes. Not in the registry; tests run it directly.
 */
package io.rewind.ft.template;
