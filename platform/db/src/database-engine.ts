/** Which store a database runs on: the migrations and some queries differ between the two. */
export type DatabaseEngine = 'sqlite' | 'postgres';
