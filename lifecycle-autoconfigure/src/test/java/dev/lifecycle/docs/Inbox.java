package dev.lifecycle.docs;

import java.nio.file.Path;
import java.util.List;

/** Where the finite job finds its files. */
interface Inbox {

	List<Path> pending();

}
