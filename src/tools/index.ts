import type { AnyToolDefinition } from '../core/chain/definition';
import { getSymbolAttributes } from './attributes';
import { getCodeContext } from './codeContext';
import { getDiagnostics } from './diagnostics';
import { createFile, deleteFile, editText, insertAfterSymbol, insertBeforeSymbol, moveFile, replaceSymbolBody } from './edits';
import { formatDocument, renameSymbol } from './semantic';
import { listCodeActions, prepareFixAll, stageCodeAction } from './codeActions';
import { findImplementations, goToDefinition } from './navigation';
import { findReferences } from './references';
import { getErrorDetails, serverStatus } from './server';
import { getApiSurface, getDocumentOutline, getSymbolInfo, getSymbolMembers, resolveSymbolTool } from './symbols';
import { searchSymbols } from './search';
import { transactionCheck } from './checks';
import { transactionCommit, transactionRollback } from './transactionEnd';
import { transactionRevert } from './transactionRevert';
import { transactionHistory, transactionPreview, transactionStart } from './transactions';
import { findCallees, findCallers } from './calls';
import { findDerivedTypes, findOverloads, findOverrides, getPartialDeclarations, getTypeHierarchy } from './hierarchy';
import { getProjectDetails, getSolutionStructure, workspaceList, workspaceStatus } from './workspace';

/**
 * Every tool Agent Workbench offers, in the order agents see them. A definition that is not
 * listed here does not exist for agents, the manifest or the reference.
 */
export const ALL_TOOLS: readonly AnyToolDefinition[] = [
  workspaceList,
  workspaceStatus,
  getSolutionStructure,
  getProjectDetails,
  serverStatus,
  getErrorDetails,
  searchSymbols,
  getDocumentOutline,
  resolveSymbolTool,
  getSymbolInfo,
  getSymbolAttributes,
  getSymbolMembers,
  getApiSurface,
  getCodeContext,
  goToDefinition,
  findImplementations,
  findReferences,
  findCallers,
  findCallees,
  getTypeHierarchy,
  findDerivedTypes,
  findOverrides,
  findOverloads,
  getPartialDeclarations,
  getDiagnostics,
  editText,
  createFile,
  deleteFile,
  moveFile,
  replaceSymbolBody,
  insertBeforeSymbol,
  insertAfterSymbol,
  renameSymbol,
  formatDocument,
  listCodeActions,
  stageCodeAction,
  prepareFixAll,
  transactionStart,
  transactionPreview,
  transactionCheck,
  transactionHistory,
  transactionCommit,
  transactionRollback,
  transactionRevert,
];
