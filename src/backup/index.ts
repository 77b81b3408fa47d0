// Backups of DATA_DIR (`npm run backup` / `npm run restore`, src/backup-cli.ts) and the one-bot-per-DATA_DIR lock.

export { backupDataDir, type BackupOptions, type BackupResult } from './backup-data-dir.js';
export { restoreDataDir, type RestoreOptions, type RestoreResult } from './restore-data-dir.js';
export { listBackups, type ListedBackup } from './list-backups.js';
export { BackupError } from './backup-error.js';
export { claimDataDir, DataDirInUseError, pidFileName, runningBot, type DataDirOwner } from './running-bot.js';
export type { BackupManifest } from './manifest.js';
