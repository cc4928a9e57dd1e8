import { silentLog, type Log } from '@dealer/db/worker-log';

/** A logger for services built before the server: silent until `to` gives it the server's. */
export class RelayLog implements Log {
  private target: Log = silentLog;

  to(target: Log) {
    this.target = target;
  }

  info(obj: object, msg: string) {
    this.target.info(obj, msg);
  }

  warn(obj: object, msg: string) {
    this.target.warn(obj, msg);
  }

  error(obj: object, msg: string) {
    this.target.error(obj, msg);
  }
}
