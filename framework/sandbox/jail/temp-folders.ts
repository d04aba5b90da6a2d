/**
 * The temporary folders of submissions' copies and runs live in framework/files/temp-folders.ts,
 * below the intake, which makes its snapshots there too (one module: Ctrl-C removes them all).
 */
export { makeTempFolder, makeTempFolderSync, removeEveryTempFolderOfThisProcess, removeTempFolder, removeTempFolderSync } from '../../files/temp-folders.ts';
