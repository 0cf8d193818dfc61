// Postgres refusals a caller tells apart by their SQLSTATE (TypeORM wraps the driver's error).

/** foreign_key_violation: the referenced row is gone (an app deleted under a write). */
export const isForeignKeyViolation = (err: any): boolean => (err?.driverError?.code ?? err?.code) === '23503';
