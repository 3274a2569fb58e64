// "server-only" throws when imported outside React Server Components; vitest runs route
// handlers as plain functions, which is exactly the server side, so it resolves to nothing here.
export {};
