"use client";

import { NetworkSection } from "./NetworkSection";
import { TokensSection } from "./TokensSection";
import { UsersSection } from "./UsersSection";

/** The admin's page: users, API tokens, and which private networks crawls may reach. */
export function SettingsPage({ currentEmail }: { currentEmail: string }) {
  return (
    <div className="settings-page">
      <h1>Settings</h1>
      <UsersSection />
      <TokensSection currentEmail={currentEmail} />
      <NetworkSection />
    </div>
  );
}
