import type { AnyTool } from '../tool.js';
import { createListFilesTool } from './list-files.js';
import { createReadFileTool } from './read-file.js';
import { createWriteFileTool } from './write-file.js';

export { sandboxFolderName, sandboxRoot } from './sandbox.js';

/** write_file, read_file and list_files over the per-conversation sandbox (DATA_DIR/files/<conversation>). */
export function createFileTools(): AnyTool[] {
  return [createWriteFileTool(), createReadFileTool(), createListFilesTool()];
}
