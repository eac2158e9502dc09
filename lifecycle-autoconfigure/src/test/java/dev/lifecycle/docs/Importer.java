package dev.lifecycle.docs;

import java.nio.file.Path;

/** What the finite job does with each file. */
interface Importer {

	void importFile(Path file) throws Exception;

}
