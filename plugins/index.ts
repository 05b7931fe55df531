/** The remark plugins of the knowledge-base dialect and the `remarkKb` preset. */
export * from './types.js'
